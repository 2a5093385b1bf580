import Foundation
import MeterWire

/// Where a delivery queue stands, for those waiting on it.
package enum QueueSettlement: Sendable, Equatable {
    /// Nothing to send now: the queue is empty, or sending is paused.
    case idle
    /// Every queued ping waits for a retry due at this instant.
    case retrying(at: MeterInstant)
}

/// The durable ping queue of one collector, shared by every instance that reports there from the
/// same storage.
///
/// A ping is written to storage **before** any network attempt and removed only when the collector
/// accepted it (2xx) or refused it for good (``RetryPolicy``). Pings leave in order, one request in
/// flight; a backlog leaves in batches. Credit not yet in a ping is checkpointed by the core as a
/// provisional ping (``checkpoint(_:record:)``), which the next launch sends if the process died.
///
/// What becomes of a ping is told to the instance that built it, and to no other. When storage
/// fails, the ping is kept in memory (counted in ``DeliveryCounters/storageFailures``) and its
/// instance hears the documented code.
actor DeliveryQueue {
    static let recordPrefix = "q-"
    static let checkpointPrefix = "cp-"

    /// One queued ping: its storage key (nil when storage refused it), the record, and the
    /// instance that built it (nil for pings left by an earlier process).
    struct Entry {
        /// Unique in this queue: requests remove what they sent by it.
        var serial: Int
        var key: String?
        var record: PingRecord
        var origin: UUID?
    }

    /// A caller of ``waitUntilSettled(orBackingOff:)``.
    struct Waiter {
        let acceptsBackoff: Bool
        let continuation: CheckedContinuation<QueueSettlement, Never>
    }

    let baseURL: URL
    let storage: MeterStorage
    let transport: PingTransport
    let clock: MeterClock
    let policy: RetryPolicy
    let bounds: QueueBounds

    var entries: [Entry] = []
    var queuedBytes = 0
    /// Entries kept in memory only (their write failed): counted as they come and go, as
    /// diagnostics are published at every enqueue and the queue may hold thousands.
    var inMemoryOnly = 0
    /// No entry was created earlier: exact after a scan, low after removals, so that the expiry
    /// scan runs only when a ping may have expired.
    var earliestCreatedAt = Double.infinity
    var counters = DeliveryCounters()
    var consecutiveFailures = 0
    /// Each attached instance's logger (diagnostics are logged through every one).
    var reporters: [UUID: EventReporter] = [:]
    /// How each attached instance hears of its pings' outcomes: a `report` command to its runner.
    var notifiers: [UUID: @Sendable (MeterEventCode, String) -> Void] = [:]
    /// The start of each attached instance's checkpoint keys (``checkpointKey(_:)``).
    var checkpointKeys: [UUID: String] = [:]
    var pausedBy: Set<UUID> = []
    var uploading = false
    var waiters: [Waiter] = []
    /// While a retry waits: when the next attempt is due.
    var retryAt: MeterInstant?
    var backoffTask: Task<Void, Never>?
    var rateLimited = false
    var batchSupported = true
    var batchLimit = BatchFormat.sdkMaxPings
    /// True after a refused ping was replaced by its plain form: it goes next, alone, so that the
    /// census's answer is about it only.
    var sendAloneNext = false
    private var sequence = 0
    private var opened = false
    /// The latest diagnostics, readable from any thread without waiting for the queue.
    nonisolated let published = Locked(DeliveryDiagnostics())

    init(baseURL: URL, environment: MeterEnvironment) {
        self.baseURL = baseURL
        storage = environment.storage
        transport = environment.transport
        clock = environment.clock
        policy = environment.retryPolicy
        bounds = environment.queueBounds
    }

    /// Loads what a previous process left: queued pings (damaged records are skipped, counted and
    /// removed) and credit checkpoints, which become recovered pings unless their ping was queued.
    /// Storage failures are reported to `opener`.
    private func open(reportingTo opener: UUID) {
        guard !opened else { return }
        opened = true
        do {
            for key in try storage.keys(prefix: Self.recordPrefix) {
                guard let data = try storage.load(key), let record = PingRecordCodec.decode(data) else {
                    counters.corruptRecords += 1
                    try storage.save(key, nil)
                    continue
                }
                sequence += 1
                entries.append(Entry(serial: sequence, key: key, record: record, origin: nil))
                queuedBytes += record.approximateSize
                earliestCreatedAt = min(earliestCreatedAt, record.ping.createdAt)
            }
            let queuedIDs = Set(entries.map(\.record.ping.id))
            for key in try storage.keys(prefix: Self.checkpointPrefix) {
                let data = try storage.load(key)
                try storage.save(key, nil)
                guard let data, let record = PingRecordCodec.decode(data) else {
                    counters.corruptRecords += 1
                    continue
                }
                guard !queuedIDs.contains(record.ping.id) else { continue }
                counters.recovered += 1
                append(record, origin: nil)
            }
        } catch {
            counters.storageFailures += 1
            report(.store(error), to: opener)
        }
        enforceBounds()
        publish()
        startUploading()
    }

    // MARK: Producers

    /// Registers an instance that reports through this queue; the first one opens it.
    func attach(_ instance: UUID, reporter: EventReporter, notify: @escaping @Sendable (MeterEventCode, String) -> Void) {
        reporters[instance] = reporter
        notifiers[instance] = notify
        checkpointKeys[instance] = Self.checkpointKey(instance)
        open(reportingTo: instance)
        // An earlier process's pings held while every instance was disabled may go now.
        startUploading()
    }

    /// Forgets an instance: its pause and its reporter.
    func detach(_ instance: UUID) {
        reporters[instance] = nil
        notifiers[instance] = nil
        checkpointKeys[instance] = nil
        resume(instance)
    }

    /// Persists `record`, built by `origin`, then schedules it; with `clearingCheckpoint`, removes
    /// `origin`'s checkpoint in that slot afterwards (the record carries the checkpoint's ping id,
    /// so a crash in between cannot credit anything twice).
    func enqueue(_ record: PingRecord, origin: UUID, clearingCheckpoint slot: CheckpointSlot? = nil) {
        append(record, origin: origin)
        if let slot { checkpoint(origin, slot: slot, record: nil) }
        enforceBounds()
        publish()
        startUploading()
    }

    /// Stores (or, with nil, removes) `instance`'s credit checkpoint in `slot`: a provisional ping
    /// for the seconds credited since its last ping.
    func checkpoint(_ instance: UUID, slot: CheckpointSlot, record: PingRecord?) {
        // The key's instance part is kept from `attach`: `uuidString` formats through snprintf on
        // Linux, and a checkpoint is written every five seconds of playback.
        do {
            let key = (checkpointKeys[instance] ?? Self.checkpointKey(instance)) + slot.rawValue
            try storage.save(key, record.map(PingRecordCodec.encode))
        } catch {
            counters.storageFailures += 1
            publish()
            report(.write("a credit checkpoint", error, instead: "a kill now loses the credit since the last ping"), to: instance)
        }
    }

    /// Whether `entry` waits for its instance to be enabled again: its own instance is disabled,
    /// or (a ping an earlier process left) every instance attached is. Each instance's
    /// `appDisableApi` holds its own pings only: the app's other players go on being delivered.
    func isHeld(_ entry: Entry) -> Bool {
        guard !pausedBy.isEmpty else { return false }
        if let origin = entry.origin { return pausedBy.contains(origin) }
        return reporters.keys.allSatisfy(pausedBy.contains)
    }

    /// The first entry that may be sent now, if any.
    func firstSendable() -> Int? {
        pausedBy.isEmpty ? (entries.isEmpty ? nil : 0) : entries.firstIndex { !isHeld($0) }
    }

    /// Holds `instance`'s pings while it is disabled (`appDisableApi = true`); they stay queued.
    func pause(_ instance: UUID) {
        pausedBy.insert(instance)
        publish()
        notifyWaiters()
    }

    /// Lifts `instance`'s pause.
    func resume(_ instance: UUID) {
        guard pausedBy.remove(instance) != nil else { return }
        publish()
        startUploading()
        notifyWaiters()
    }

    /// Tries now instead of waiting out a backoff (on `end`, in the background, on release),
    /// unless the collector asked to wait (429 / Retry-After).
    func deliverPromptly() {
        guard !rateLimited else { return }
        backoffTask?.cancel()
        startUploading()
    }

    // MARK: Observers

    /// Returns once the queue is empty or sending is paused (``QueueSettlement/idle``); with
    /// `orBackingOff`, also once the queued pings wait for a retry (``QueueSettlement/retrying(at:)``).
    func waitUntilSettled(orBackingOff: Bool = false) async -> QueueSettlement {
        if let settlement = settlement(acceptingBackoff: orBackingOff) { return settlement }
        return await withCheckedContinuation { waiters.append(Waiter(acceptsBackoff: orBackingOff, continuation: $0)) }
    }

    private func settlement(acceptingBackoff: Bool) -> QueueSettlement? {
        if firstSendable() == nil { return .idle }
        if acceptingBackoff, let retryAt { return .retrying(at: retryAt) }
        return nil
    }

    func notifyWaiters() {
        waiters.removeAll { waiter in
            guard let settlement = settlement(acceptingBackoff: waiter.acceptsBackoff) else { return false }
            waiter.continuation.resume(returning: settlement)
            return true
        }
    }

    var diagnostics: DeliveryDiagnostics {
        DeliveryDiagnostics(
            counters: counters, queued: entries.count, queuedBytes: queuedBytes,
            inMemoryOnly: inMemoryOnly, paused: !pausedBy.isEmpty,
            consecutiveFailures: consecutiveFailures, nextAttempt: retryAt)
    }

    // MARK: Queue bookkeeping

    /// The start of `instance`'s checkpoint keys; the slot's name completes them.
    static func checkpointKey(_ instance: UUID) -> String { checkpointPrefix + instance.uuidString + "-" }

    /// `value` in decimal, zero-padded to `width` digits (keys sort by time, then sequence).
    /// Not `String(format:)`, which took a tenth of a ping's delivery on Linux.
    static func zeroPadded(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }

    private func append(_ record: PingRecord, origin: UUID?) {
        sequence += 1
        let millis = Int64(max(0, clock.now().secondsSince1970) * 1000)
        var key: String? = Self.recordPrefix + Self.zeroPadded(millis, 13) + "-" + Self.zeroPadded(Int64(sequence % 1_000_000), 6)
            + "-" + FileStorage.safeName(record.ping.id)
        do {
            try storage.save(key!, PingRecordCodec.encode(record))
        } catch {
            key = nil
            counters.storageFailures += 1
            if let origin {
                report(.write("a ping", error, instead: "it is kept in memory and sent, but lost if the app is killed first"),
                       to: origin)
            }
        }
        entries.append(Entry(serial: sequence, key: key, record: record, origin: origin))
        queuedBytes += record.approximateSize
        if key == nil { inMemoryOnly += 1 }
        earliestCreatedAt = min(earliestCreatedAt, record.ping.createdAt)
    }

    /// Removes the entries with these serial numbers that are still queued (bounds may have
    /// dropped some while a request for them was in flight).
    func remove(serials: Set<Int>) {
        entries.removeAll { entry in
            guard serials.contains(entry.serial) else { return false }
            delete(entry)
            return true
        }
    }

    /// Removes the first `count` entries.
    func removeFirst(_ count: Int) {
        for entry in entries.prefix(count) { delete(entry) }
        entries.removeFirst(min(count, entries.count))
    }

    private func delete(_ entry: Entry) {
        queuedBytes -= entry.record.approximateSize
        guard let key = entry.key else {
            inMemoryOnly -= 1
            return
        }
        do { try storage.save(key, nil) } catch {
            counters.storageFailures += 1
            if let origin = entry.origin {
                report(.write("the removal of a delivered ping", error, instead: "it may be sent again at the next launch and is then credited once"),
                       to: origin)
            }
        }
    }

    /// Drops expired pings, then the oldest while over the count or byte bound, and tells the
    /// instances that built them.
    func enforceBounds() {
        let oldestAllowed = clock.now().secondsSince1970 - bounds.maxAge
        // Anywhere in the queue: a recovered checkpoint is queued after younger pings.
        var expired: [Entry] = []
        if earliestCreatedAt < oldestAllowed {
            expired = entries.filter { $0.record.ping.createdAt < oldestAllowed }
            expired.forEach(delete)
            entries.removeAll { $0.record.ping.createdAt < oldestAllowed }
            counters.droppedExpired += expired.count
            earliestCreatedAt = entries.reduce(.infinity) { min($0, $1.record.ping.createdAt) }
        }
        var overflowed: [Entry] = []
        while entries.count > bounds.maxCount || (queuedBytes > bounds.maxBytes && entries.count > 1) {
            // A development call trace gives way before any ping: tracing must never cost a credited
            // second. Pings go oldest first whatever their kind: a DTVR session's tags and duration
            // pings of the same stretch go together, so the census's tag credit (decisions.md T6)
            // and the SDK's claim lose the same seconds. (Removal by index is safe under an upload
            // in flight, which settles by serial.)
            if let index = entries.firstIndex(where: { $0.record.route == WireRoute.trace }) {
                delete(entries[index])
                entries.remove(at: index)
            } else {
                overflowed.append(entries[0])
                removeFirst(1)
            }
            counters.droppedOverflow += 1
        }
        reportDropped(expired, "older than \(Int(bounds.maxAge / 86_400)) days")
        reportDropped(overflowed, "over the offline queue's bound (\(bounds.maxCount) pings, \(bounds.maxBytes >> 10) KiB)")
    }

    /// One event per instance for the pings a bound dropped (an earlier process's have no one to tell).
    private func reportDropped(_ dropped: [Entry], _ why: String) {
        guard !dropped.isEmpty else { return }   // the common case: this runs at every enqueue
        for (origin, entries) in Dictionary(grouping: dropped.filter { $0.origin != nil }, by: { $0.origin! }) {
            let records = entries.map(\.record)
            let seconds = records.reduce(0) { $0 + $1.ping.creditedSeconds }
            report(.failedSendPing, "\(records.count) queued ping(s) \(why) were dropped unsent, the oldest first; "
                   + (seconds == 0 ? "they credited no seconds" : "\(seconds) credited seconds are lost"), to: [origin])
        }
    }

    /// Tells the instance that built the pings what became of them, through its runner (the
    /// single writer of its events, so they reach the delegate in order with the others); pings
    /// of an earlier process have no instance to tell, so the outcome is only counted.
    func report(_ code: MeterEventCode, _ message: String, to origins: some Sequence<UUID?>) {
        for origin in Set(origins.compactMap { $0 }) {
            notifiers[origin]?(code, message)
        }
    }

    func report(_ issue: StorageIssue, to origin: UUID) {
        report(issue.code, issue.message, to: [origin])
    }

    /// Publishes the diagnostics and logs them at DEBUG through every attached instance.
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
}
