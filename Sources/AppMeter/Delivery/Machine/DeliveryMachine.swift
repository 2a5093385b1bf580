import Foundation
import MeterWire

/// The delivery queue's decisions as a value, with no I/O: what is queued, what goes next, what
/// an outcome means (``RetryPolicy``, ``RetryState``), which bound drops what, what a previous
/// process left becomes, and whom to tell. Its state is read-only from outside: every change is an
/// event (a method) that returns ``DeliveryAction``s. ``DeliveryQueue`` is its thin owner: it runs
/// the storage writes, the requests and the waits, and hands back their results.
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
    static let checkpointPrefix = "cp-"

    let policy: RetryPolicy
    let bounds: QueueBounds
    private(set) var entries: [Entry] = []
    private(set) var queuedBytes = 0
    /// Entries kept in memory only (their save failed).
    private(set) var inMemoryOnly = 0
    /// No entry was created earlier: exact after a scan, low after removals, so that the expiry
    /// scan runs only when a ping may have expired.
    private var earliestCreatedAt = Double.infinity
    private(set) var counters = DeliveryCounters()
    /// Failures in a row and whether the collector asked to wait (shared with the browser: B6).
    private(set) var retries = RetryState()
    private(set) var upload = UploadState.idle
    /// The instances reporting through this queue, and those of them disabled by the app.
    private(set) var attached: Set<UUID> = []
    private(set) var pausedBy: Set<UUID> = []
    private(set) var batchSupported = true
    private(set) var batchLimit = BatchFormat.sdkMaxPings
    private var sequence = 0

    init(policy: RetryPolicy, bounds: QueueBounds) {
        self.policy = policy
        self.bounds = bounds
    }

    /// Failed attempts in a row.
    var consecutiveFailures: Int { retries.consecutiveFailures }

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
        [appendOne(record, origin: origin, at: now)]
    }

    /// ``append(_:origin:at:)``'s one action. The key is written into one string sized for it:
    /// joined piece by piece, it cost an allocation a piece, for every ping.
    private mutating func appendOne(_ record: PingRecord, origin: UUID?, at now: MeterInstant) -> DeliveryAction {
        sequence += 1
        let millis = Int64(max(0, now.secondsSince1970) * 1000)
        let id = FileStorage.safeName(record.ping.id)
        var key = ""
        key.reserveCapacity(Self.recordPrefix.utf8.count + 13 + 1 + 6 + 1 + id.utf8.count)
        key += Self.recordPrefix
        Self.appendZeroPadded(millis, 13, to: &key)
        key += "-"
        Self.appendZeroPadded(Int64(sequence % 1_000_000), 6, to: &key)
        key += "-"
        key += id
        track(Entry(serial: sequence, key: key, record: record, origin: origin))
        return .save(key: key, record: record, serial: sequence)
    }

    /// `origin` built `record`: it is saved, then the bounds are applied. (Its runner removes the
    /// checkpoint the record replaces once this returns, the save done: the record carries the
    /// checkpoint's ping id, so a crash in between cannot credit anything twice: D4.)
    mutating func enqueued(_ record: PingRecord, origin: UUID, at now: MeterInstant) -> [DeliveryAction] {
        // Room for the save and a bound's report or two: one allocation.
        var actions: [DeliveryAction] = []
        actions.reserveCapacity(3)
        actions.append(appendOne(record, origin: origin, at: now))
        enforceBounds(at: now, into: &actions)
        return actions
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

    // MARK: Storage failures

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

    /// The rewrite of a ping in its plain form failed: only counted (``DeliveryAction/rewrite(key:record:)``).
    mutating func rewriteFailed() {
        counters.storageFailures += 1
    }

    // MARK: What a previous process left

    /// The queue opened on what a previous process left, read in storage order: its queued pings
    /// and its credit checkpoints, already removed from storage (nil: damaged), and the error that
    /// cut the reading short, if any. Damaged records are counted and deleted; a checkpoint
    /// becomes a recovered ping unless its ping was queued; a storage failure is reported to
    /// `opener`. Bounds are applied last.
    mutating func opened(
        records: [(key: String, record: PingRecord?)], checkpoints: [PingRecord?], failure: (any Error)?,
        reportingTo opener: UUID, at now: MeterInstant
    ) -> [DeliveryAction] {
        var actions: [DeliveryAction] = []
        for (key, record) in records {
            if let record { restore(record, key: key) } else {
                counters.corruptRecords += 1
                actions.append(.delete(key: key, origin: nil))
            }
        }
        let queuedIDs = Set(entries.map(\.record.ping.id))
        for checkpoint in checkpoints {
            guard let record = checkpoint else {
                counters.corruptRecords += 1
                continue
            }
            guard !queuedIDs.contains(record.ping.id) else { continue }
            counters.recovered += 1
            actions += append(record, origin: nil, at: now)
        }
        if let failure {
            counters.storageFailures += 1
            let issue = StorageIssue.store(failure)
            actions.append(.report(issue.code, issue.message, to: [opener]))
        }
        enforceBounds(at: now, into: &actions)
        return actions
    }

    // MARK: Credit checkpoints

    /// An instance's runner failed to write its credit checkpoint (``InstanceCheckpoints``): counted
    /// with the queue's other storage failures; the runner tells its instance.
    mutating func checkpointFailed() {
        counters.storageFailures += 1
    }

    // MARK: Removal and bounds

    /// Removes the entries with these serial numbers that are still queued (bounds may have
    /// dropped some while a request for them was in flight).
    mutating func remove(serials: Set<Int>, into actions: inout [DeliveryAction]) {
        remove(into: &actions) { serials.contains($0) }
    }

    /// Removes the queued entries whose serial number `isRemoved`, in place: every delivered ping
    /// is removed this way, one a minute per playing instance.
    private mutating func remove(into actions: inout [DeliveryAction], where isRemoved: (Int) -> Bool) {
        for entry in entries where isRemoved(entry.serial) { forget(entry, into: &actions) }
        entries.removeAll { isRemoved($0.serial) }
    }

    private mutating func forget(_ entry: Entry, into actions: inout [DeliveryAction]) {
        queuedBytes -= entry.record.approximateSize
        if let key = entry.key { actions.append(.delete(key: key, origin: entry.origin)) } else { inMemoryOnly -= 1 }
    }

    /// Drops expired pings, then the oldest while over the count or byte bound, and tells the
    /// instances that built them (decisions.md D7).
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
        while bounds.overflow(count: entries.count) > 0 || (queuedBytes > bounds.maxBytes && entries.count > 1) {
            // A development call trace gives way before any ping: tracing must never cost a credited
            // second. Pings go oldest first whatever their kind (D7, T6).
            let index = entries.firstIndex { $0.record.route == WireRoute.trace } ?? 0
            if index == 0 && entries[0].record.route != WireRoute.trace { overflowed.append(entries[0]) }
            forget(entries.remove(at: index), into: &actions)
            counters.droppedOverflow += 1
        }
        Self.reportDropped(expired, "older than \(Int(bounds.maxAge / 86_400)) days", into: &actions)
        Self.reportDropped(overflowed, "over the offline queue's bound (\(bounds.maxCount) pings, \(bounds.maxBytes >> 10) KiB)",
                           into: &actions)
    }

    // MARK: Upload

    /// Marks the upload as started when there is something to send and none is under way; the
    /// owner then runs one upload loop (``nextAttempt(base:at:into:)`` until nil).
    mutating func beginUpload() -> Bool {
        guard upload == .idle, firstSendable() != nil else { return false }
        upload = .sending(aloneNext: false)
        return true
    }

    /// The upload loop ended: nothing is left that may be sent now.
    mutating func endUpload() {
        upload = .idle
    }

    /// The retry wait is over (or was cut short).
    mutating func backoffEnded() {
        if case .backingOff = upload { upload = .sending(aloneNext: false) }
    }

    /// The next request, or nil when nothing may be sent now. Bounds are applied first; a ping
    /// whose URL cannot be built is dropped and told.
    mutating func nextAttempt(base: URL, at now: MeterInstant, into actions: inout [DeliveryAction]) -> DeliveryAttempt? {
        while true {
            enforceBounds(at: now, into: &actions)
            guard let start = firstSendable() else { return nil }
            let count = batchSize(from: start)
            if case .sending(true) = upload { upload = .sending(aloneNext: false) }
            let sent = Array(entries[start..<start + count])
            if let request = Self.request(for: sent, base: base, sendTime: now) { return DeliveryAttempt(request: request, sent: sent) }
            let record = sent[0].record
            remove(serials: [sent[0].serial], into: &actions)
            counters.rejected += 1
            counters.rejectedSeconds += record.ping.creditedSeconds
            actions.append(.report(.failedCreateURL, "a queued ping has an invalid URL and was dropped; \(Self.lost([record]))",
                                   to: sent[0].origin.map { [$0] } ?? []))
        }
    }

    /// What `outcome` of `attempt` means: entries removed, counted, resent plain or kept for a
    /// retry, the instances told; and whether the owner goes on or waits. `random` in 0..<1
    /// jitters the backoff.
    mutating func received(
        _ outcome: TransportOutcome, for attempt: DeliveryAttempt, at now: MeterInstant, random: Double,
        into actions: inout [DeliveryAction]
    ) -> AfterAttempt {
        let sent = attempt.sent
        let count = sent.count
        if count > 1, case .response(let status, _, _) = outcome, [400, 404, 405, 413].contains(status) {
            // An older census without the batch endpoint, a body too large, or one refused whole
            // (so that no line has its own answer): send fewer, or each ping alone (D10).
            if status == 413 { batchLimit = max(1, batchLimit / 2) } else { batchSupported = false }
            return .next
        }
        switch retries.record(outcome.answer, policy: policy, random: random) {
        case .delivered:
            delivered(outcome, sent, into: &actions)
        case .drop:
            remove(serials: Set(sent.map(\.serial)), into: &actions)
            refuse(sent, refusal: Self.refusal(outcome), into: &actions)
        case .resendWithoutDescription:
            // A batch refused whole went back to single pings before reaching here.
            if count == 1, resendWithoutDescription(sent[0], refusal: Self.refusal(outcome), into: &actions) { break }
            remove(serials: Set(sent.map(\.serial)), into: &actions)
            refuse(sent, refusal: Self.refusal(outcome), into: &actions)
        case .retry(let wait):
            counters.retried += 1
            if retries.consecutiveFailures == 1 {
                let (code, what) = Self.failure(outcome)
                actions.append(.report(code, "\(what); pings are kept and retried", to: Self.origins(sent)))
            }
            upload = .backingOff(until: now + wait)
            return .backOff(until: now + wait)
        }
        return .next
    }

    /// Accepted: each line of a batch's answer that refused its ping is resent plain or dropped.
    private mutating func delivered(_ outcome: TransportOutcome, _ sent: [Entry], into actions: inout [DeliveryAction]) {
        guard sent.count > 1, case .response(_, _, let body) = outcome,
              let answer = try? JSONDecoder().decode(BatchAnswer.self, from: body) else {
            counters.delivered += sent.count
            return remove(into: &actions) { serial in sent.contains { $0.serial == serial } }
        }
        // The answer's numbers are the collector's: held to what was sent, so none can trap.
        let stored = min(max(answer.stored, 0), sent.count)
        counters.delivered += stored + min(max(answer.duplicates, 0), sent.count - stored)
        var kept: Set<Int> = []
        for rejection in answer.rejected where rejection.line > 0 && sent.indices.contains(rejection.line - 1) {
            let entry = sent[rejection.line - 1]
            let refusal = "in a batch: \(Self.shown(rejection.reason))"
            if resendWithoutDescription(entry, refusal: refusal, into: &actions) {
                kept.insert(entry.serial)
            } else {
                refuse([entry], refusal: refusal, into: &actions)
            }
        }
        remove(serials: Set(sent.map(\.serial)).subtracting(kept), into: &actions)
    }

    // MARK: Refused pings (docs/protocol.md §2, decisions.md D9)

    /// Replaces `entry`'s ping, in the queue and in storage, by the same ping without its
    /// descriptive fields, so that it goes next; false when it has none to empty (or a body, which
    /// carries what was refused).
    private mutating func resendWithoutDescription(_ entry: Entry, refusal: String, into actions: inout [DeliveryAction]) -> Bool {
        guard entry.record.body == nil, let plain = entry.record.ping.withoutDescription() else { return false }
        guard let index = entries.firstIndex(where: { $0.serial == entry.serial }) else { return true }
        var record = entry.record
        record.ping = plain
        queuedBytes += record.approximateSize - entries[index].record.approximateSize
        entries[index].record = record
        counters.resentWithoutDescription += 1
        upload = .sending(aloneNext: true)
        if let key = entries[index].key { actions.append(.rewrite(key: key, record: record)) }
        actions.append(.report(.failedSendPing, Self.resentPlain(record, refusal: refusal), to: entry.origin.map { [$0] } ?? []))
        return true
    }

    /// Counts `refused` as rejected, with their seconds, and tells the instances that built them.
    private mutating func refuse(_ refused: [Entry], refusal: String, into actions: inout [DeliveryAction]) {
        guard !refused.isEmpty else { return }
        let records = refused.map(\.record)
        counters.rejected += records.count
        counters.rejectedSeconds += records.reduce(0) { $0 + $1.ping.creditedSeconds }
        actions.append(.report(.failedSendPing, Self.refused(records, refusal: refusal), to: Self.origins(refused)))
    }

    /// Appends `value` in decimal to `text`, zero-padded to `width` digits (keys sort by time,
    /// then sequence). Not `String(format:)`, which took a tenth of a ping's delivery on Linux.
    static func appendZeroPadded(_ value: Int64, _ width: Int, to text: inout String) {
        let digits = String(value)
        for _ in digits.utf8.count..<max(width, digits.utf8.count) { text += "0" }
        text += digits
    }
}
