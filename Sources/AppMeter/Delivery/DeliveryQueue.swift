import Foundation

/// The durable ping queue of one collector, shared by every instance that reports there from the
/// same storage.
///
/// A ping is written to storage **before** any network attempt and removed only when the collector
/// accepted it (2xx) or refused it for good (``RetryPolicy``). Pings leave in order, one request in
/// flight; a backlog leaves in batches. Credit not yet in a ping is checkpointed by the engine as a
/// provisional ping (``checkpoint(_:record:)``), which the next launch sends if the process died.
actor DeliveryQueue {
    static let recordPrefix = "q-"
    static let checkpointPrefix = "cp-"

    let baseURL: URL
    let storage: MeterStorage
    let transport: PingTransport
    let clock: MeterClock
    let sleep: @Sendable (Double) async -> Void
    let policy: RetryPolicy
    let bounds: QueueBounds

    var records: [(key: String, record: PingRecord)] = []
    var queuedBytes = 0
    var counters = DeliveryCounters()
    var consecutiveFailures = 0
    var reporters: [UUID: EventReporter] = [:]
    var pausedBy: Set<UUID> = []
    var uploading = false
    var idleWaiters: [CheckedContinuation<Void, Never>] = []
    var backoffTask: Task<Void, Never>?
    var rateLimited = false
    var batchSupported = true
    var batchLimit = 50
    private var sequence = 0
    private var opened = false
    /// The latest diagnostics, readable from any thread without waiting for the queue.
    nonisolated let published = Locked(DeliveryDiagnostics(
        counters: DeliveryCounters(), queued: 0, queuedBytes: 0, paused: false, consecutiveFailures: 0))

    init(baseURL: URL, environment: MeterEnvironment) {
        self.baseURL = baseURL
        storage = environment.storage
        transport = environment.transport
        clock = environment.clock
        sleep = environment.sleep
        policy = environment.retryPolicy
        bounds = environment.queueBounds
    }

    /// Loads what a previous process left: queued pings (damaged records are skipped, counted and
    /// removed) and credit checkpoints, which become recovered pings unless their ping was queued.
    private func open() {
        guard !opened else { return }
        opened = true
        for key in storage.keys(prefix: Self.recordPrefix) {
            guard let data = storage.load(key), let record = PingRecordCodec.decode(data) else {
                counters.corruptRecords += 1
                storage.save(key, nil)
                continue
            }
            records.append((key, record))
            queuedBytes += record.approximateSize
        }
        let queuedIDs = Set(records.map(\.record.ping.id))
        for key in storage.keys(prefix: Self.checkpointPrefix) {
            defer { storage.save(key, nil) }
            guard let data = storage.load(key), let record = PingRecordCodec.decode(data) else {
                counters.corruptRecords += 1
                continue
            }
            guard !queuedIDs.contains(record.ping.id) else { continue }
            counters.recovered += 1
            append(record)
        }
        enforceBounds()
        publish()
        startUploading()
    }

    // MARK: Producers

    /// Registers an instance that reports through this queue; the first one opens it.
    func attach(_ instance: UUID, reporter: EventReporter) {
        reporters[instance] = reporter
        open()
    }

    /// Forgets an instance: its pause and its reporter.
    func detach(_ instance: UUID) {
        reporters[instance] = nil
        resume(instance)
    }

    /// Persists `record`, then schedules it; removes `instance`'s checkpoint afterwards (the record
    /// carries the checkpoint's ping id, so a crash in between cannot credit anything twice).
    func enqueue(_ record: PingRecord, clearingCheckpointOf instance: UUID? = nil) {
        append(record)
        if let instance { storage.save(Self.checkpointPrefix + instance.uuidString, nil) }
        enforceBounds()
        publish()
        startUploading()
    }

    /// Stores (or, with nil, removes) `instance`'s credit checkpoint: a provisional ping for the
    /// seconds credited since its last ping.
    func checkpoint(_ instance: UUID, record: PingRecord?) {
        storage.save(Self.checkpointPrefix + instance.uuidString, record.map(PingRecordCodec.encode))
    }

    /// Stops sending while `instance` is disabled (`appDisableApi = true`); pings stay queued.
    func pause(_ instance: UUID) {
        pausedBy.insert(instance)
        publish()
    }

    /// Lifts `instance`'s pause.
    func resume(_ instance: UUID) {
        guard pausedBy.remove(instance) != nil else { return }
        publish()
        startUploading()
        if pausedBy.isEmpty { notifyIfIdle() }
    }

    /// Tries now instead of waiting out a backoff (on `end` and when the app goes to the
    /// background), unless the collector asked to wait (429 / Retry-After).
    func deliverPromptly() {
        guard !rateLimited else { return }
        backoffTask?.cancel()
        startUploading()
    }

    // MARK: Observers

    /// Returns once the queue is empty, or nothing can be sent now because sending is paused.
    func waitUntilIdle() async {
        guard !records.isEmpty && pausedBy.isEmpty else { return }
        await withCheckedContinuation { idleWaiters.append($0) }
    }

    var diagnostics: DeliveryDiagnostics {
        DeliveryDiagnostics(
            counters: counters, queued: records.count, queuedBytes: queuedBytes, paused: !pausedBy.isEmpty,
            consecutiveFailures: consecutiveFailures)
    }

    // MARK: Queue bookkeeping

    private func append(_ record: PingRecord) {
        sequence += 1
        let millis = Int64(max(0, clock.now()) * 1000)
        let key = Self.recordPrefix + String(format: "%013lld-%06d-", millis, sequence % 1_000_000)
            + FileStorage.safeName(record.ping.id)
        storage.save(key, PingRecordCodec.encode(record))
        records.append((key, record))
        queuedBytes += record.approximateSize
    }

    /// Removes the records stored under `keys` that are still queued (bounds may have dropped some
    /// while a request for them was in flight).
    func remove(keys: [String]) {
        let doomed = Set(keys)
        records.removeAll { entry in
            guard doomed.contains(entry.key) else { return false }
            storage.save(entry.key, nil)
            queuedBytes -= entry.record.approximateSize
            return true
        }
    }

    /// Removes the first `count` records.
    func removeFirst(_ count: Int) {
        for entry in records.prefix(count) {
            storage.save(entry.key, nil)
            queuedBytes -= entry.record.approximateSize
        }
        records.removeFirst(min(count, records.count))
    }

    /// Drops expired pings, then the oldest while over the count or byte bound.
    func enforceBounds() {
        let oldestAllowed = clock.now() - bounds.maxAge
        while let first = records.first, first.record.ping.createdAt < oldestAllowed {
            removeFirst(1)
            counters.droppedExpired += 1
        }
        while records.count > bounds.maxCount || (queuedBytes > bounds.maxBytes && records.count > 1) {
            removeFirst(1)
            counters.droppedOverflow += 1
        }
    }

    func report(_ code: MeterEventCode, _ message: String) {
        let time = clock.now()
        for reporter in reporters.values { reporter.report(code, message, at: time) }
    }

    /// Publishes the diagnostics and logs them at DEBUG.
    func publish() {
        let current = diagnostics
        let changed = published.withLock { previous -> Bool in
            defer { previous = current }
            return previous != current
        }
        guard changed else { return }
        for reporter in reporters.values {
            reporter.log.debug("delivery", metadata: ["diagnostics": "\(current.dictionary.sorted { $0.key < $1.key })"])
        }
    }

    func notifyIfIdle() {
        guard records.isEmpty || !pausedBy.isEmpty else { return }
        let waiters = idleWaiters
        idleWaiters.removeAll()
        waiters.forEach { $0.resume() }
    }
}
