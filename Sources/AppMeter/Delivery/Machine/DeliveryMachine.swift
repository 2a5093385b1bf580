import Foundation
import MeterWire

/// The delivery queue's decisions as a value, with no I/O: what is queued, what goes next, what
/// an outcome means (``RetryPolicy``), which bound drops what, and whom to tell. ``DeliveryQueue``
/// is its thin owner: it runs the storage writes, the requests and the waits the machine returns,
/// and hands back their results.
///
/// A ping is saved **before** any attempt and deleted only when the collector accepted it or
/// refused it for good. Pings leave in order, one request in flight; a backlog leaves in batches.
struct DeliveryMachine {
    /// One queued ping: its storage key (nil when storage refused it), the record, and the
    /// instance that built it (nil for pings left by an earlier process).
    struct Entry: Equatable {
        /// Unique in this queue: outcomes remove what they sent by it.
        var serial: Int
        var key: String?
        var record: PingRecord
        var origin: UUID?
    }

    static let recordPrefix = "q-"

    let policy: RetryPolicy
    let bounds: QueueBounds
    var entries: [Entry] = []
    var queuedBytes = 0
    /// Entries kept in memory only (their save failed).
    private(set) var inMemoryOnly = 0
    /// No entry was created earlier: exact after a scan, low after removals, so that the expiry
    /// scan runs only when a ping may have expired.
    private var earliestCreatedAt = Double.infinity
    var counters = DeliveryCounters()
    var consecutiveFailures = 0
    /// The instances reporting through this queue, and those of them disabled by the app.
    private(set) var attached: Set<UUID> = []
    private(set) var pausedBy: Set<UUID> = []
    /// A request is in flight or about to be.
    var uploading = false
    /// While a retry waits: when the next attempt is due.
    var retryAt: MeterInstant?
    var rateLimited = false
    var batchSupported = true
    var batchLimit = BatchFormat.sdkMaxPings
    /// True after a refused ping was replaced by its plain form: it goes next, alone, so that the
    /// census's answer is about it only.
    var sendAloneNext = false
    private var sequence = 0

    init(policy: RetryPolicy, bounds: QueueBounds) {
        self.policy = policy
        self.bounds = bounds
    }

    // MARK: Instances

    /// Registers an instance that reports through this queue.
    mutating func attach(_ instance: UUID) {
        attached.insert(instance)
    }

    /// Forgets an instance and its pause; true when that lifted a pause.
    mutating func detach(_ instance: UUID) -> Bool {
        attached.remove(instance)
        return resume(instance)
    }

    /// Holds `instance`'s pings while it is disabled (`appDisableApi = true`); they stay queued.
    mutating func pause(_ instance: UUID) {
        pausedBy.insert(instance)
    }

    /// Lifts `instance`'s pause; false when it had none.
    mutating func resume(_ instance: UUID) -> Bool {
        pausedBy.remove(instance) != nil
    }

    /// Whether `entry` waits for its instance to be enabled again: its own instance is disabled,
    /// or (a ping an earlier process left) every instance attached is. Each instance's
    /// `appDisableApi` holds its own pings only: the app's other players go on being delivered.
    func isHeld(_ entry: Entry) -> Bool {
        guard !pausedBy.isEmpty else { return false }
        if let origin = entry.origin { return pausedBy.contains(origin) }
        return attached.allSatisfy(pausedBy.contains)
    }

    /// The first entry that may be sent now, if any.
    func firstSendable() -> Int? {
        pausedBy.isEmpty ? (entries.isEmpty ? nil : 0) : entries.firstIndex { !isHeld($0) }
    }

    // MARK: Producers

    /// Queues `record`, built by `origin` (nil: left by an earlier process), under a key that
    /// sorts by time, then by sequence.
    mutating func append(_ record: PingRecord, origin: UUID?, at now: MeterInstant) -> [DeliveryAction] {
        sequence += 1
        let millis = Int64(max(0, now.secondsSince1970) * 1000)
        let key = Self.recordPrefix + Self.zeroPadded(millis, 13) + "-" + Self.zeroPadded(Int64(sequence % 1_000_000), 6)
            + "-" + FileStorage.safeName(record.ping.id)
        track(Entry(serial: sequence, key: key, record: record, origin: origin))
        return [.save(key: key, record: record, serial: sequence)]
    }

    /// Takes back a ping an earlier process queued under `key`.
    mutating func restore(_ record: PingRecord, key: String) {
        sequence += 1
        track(Entry(serial: sequence, key: key, record: record, origin: nil))
    }

    private mutating func track(_ entry: Entry) {
        entries.append(entry)
        queuedBytes += entry.record.approximateSize
        earliestCreatedAt = min(earliestCreatedAt, entry.record.ping.createdAt)
    }

    /// The save of entry `serial` failed: it stays queued in memory, and its instance is told.
    mutating func saveFailed(serial: Int, _ error: any Error) -> [DeliveryAction] {
        counters.storageFailures += 1
        guard let index = entries.firstIndex(where: { $0.serial == serial }) else { return [] }
        entries[index].key = nil
        inMemoryOnly += 1
        guard let origin = entries[index].origin else { return [] }
        let issue = StorageIssue.write("a ping", error, instead: "it is kept in memory and sent, but lost if the app is killed first")
        return [.report(issue.code, issue.message, to: [origin])]
    }

    /// The deletion of a delivered ping failed: it may be sent again at the next launch.
    mutating func deleteFailed(origin: UUID?, _ error: any Error) -> [DeliveryAction] {
        counters.storageFailures += 1
        guard let origin else { return [] }
        let issue = StorageIssue.write("the removal of a delivered ping", error,
                                       instead: "it may be sent again at the next launch and is then credited once")
        return [.report(issue.code, issue.message, to: [origin])]
    }

    // MARK: Removal and bounds

    /// Removes the entries with these serial numbers that are still queued (bounds may have
    /// dropped some while a request for them was in flight).
    mutating func remove(serials: Set<Int>, into actions: inout [DeliveryAction]) {
        var kept: [Entry] = []
        kept.reserveCapacity(entries.count)
        for entry in entries {
            if serials.contains(entry.serial) { forget(entry, into: &actions) } else { kept.append(entry) }
        }
        entries = kept
    }

    private mutating func forget(_ entry: Entry, into actions: inout [DeliveryAction]) {
        queuedBytes -= entry.record.approximateSize
        if let key = entry.key { actions.append(.delete(key: key, origin: entry.origin)) } else { inMemoryOnly -= 1 }
    }

    /// Drops expired pings, then the oldest while over the count or byte bound, and tells the
    /// instances that built them.
    mutating func enforceBounds(at now: MeterInstant, into actions: inout [DeliveryAction]) {
        let oldestAllowed = now.secondsSince1970 - bounds.maxAge
        // Anywhere in the queue: a recovered checkpoint is queued after younger pings.
        var expired: [Entry] = []
        if earliestCreatedAt < oldestAllowed {
            expired = entries.filter { $0.record.ping.createdAt < oldestAllowed }
            remove(serials: Set(expired.map(\.serial)), into: &actions)
            counters.droppedExpired += expired.count
            earliestCreatedAt = entries.reduce(.infinity) { min($0, $1.record.ping.createdAt) }
        }
        var overflowed: [Entry] = []
        while entries.count > bounds.maxCount || (queuedBytes > bounds.maxBytes && entries.count > 1) {
            // A development call trace gives way before any ping: tracing must never cost a credited
            // second. Pings go oldest first whatever their kind: a DTVR session's tags and duration
            // pings of the same stretch go together, so the census's tag credit (decisions.md T6)
            // and the SDK's claim lose the same seconds.
            let index = entries.firstIndex { $0.record.route == WireRoute.trace } ?? 0
            if index == 0 && entries[0].record.route != WireRoute.trace { overflowed.append(entries[0]) }
            forget(entries.remove(at: index), into: &actions)
            counters.droppedOverflow += 1
        }
        Self.reportDropped(expired, "older than \(Int(bounds.maxAge / 86_400)) days", into: &actions)
        Self.reportDropped(overflowed, "over the offline queue's bound (\(bounds.maxCount) pings, \(bounds.maxBytes >> 10) KiB)",
                           into: &actions)
    }

    /// One event per instance for the pings a bound dropped (an earlier process's have no one to tell).
    private static func reportDropped(_ dropped: [Entry], _ why: String, into actions: inout [DeliveryAction]) {
        guard !dropped.isEmpty else { return }   // the common case: this runs at every enqueue
        for (origin, entries) in Dictionary(grouping: dropped.filter { $0.origin != nil }, by: { $0.origin! })
            .sorted(by: { $0.key.uuidString < $1.key.uuidString }) {
            let records = entries.map(\.record)
            let seconds = records.reduce(0) { $0 + $1.ping.creditedSeconds }
            actions.append(.report(.failedSendPing, "\(records.count) queued ping(s) \(why) were dropped unsent, the oldest first; "
                                   + (seconds == 0 ? "they credited no seconds" : "\(seconds) credited seconds are lost"), to: [origin]))
        }
    }

    // MARK: Observers

    /// Where the queue stands for a waiter, or nil while it must go on waiting.
    func settlement(acceptingBackoff: Bool) -> QueueSettlement? {
        if firstSendable() == nil { return .idle }
        if acceptingBackoff, let retryAt { return .retrying(at: retryAt) }
        return nil
    }

    var diagnostics: DeliveryDiagnostics {
        DeliveryDiagnostics(
            counters: counters, queued: entries.count, queuedBytes: queuedBytes,
            inMemoryOnly: inMemoryOnly, paused: !pausedBy.isEmpty,
            consecutiveFailures: consecutiveFailures, nextAttempt: retryAt)
    }

    /// `value` in decimal, zero-padded to `width` digits (keys sort by time, then sequence).
    /// Not `String(format:)`, which took a tenth of a ping's delivery on Linux.
    static func zeroPadded(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}
