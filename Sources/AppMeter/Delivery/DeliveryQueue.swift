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
/// same storage: the thin owner of a ``DeliveryMachine``, which decides; this actor runs the
/// storage writes, the requests and the waits, and tells each instance of its own pings.
///
/// Credit not yet in a ping is checkpointed by each instance's runner as a provisional ping
/// (``InstanceCheckpoints``), which the next launch sends if the process died. When
/// storage fails, the ping is kept in memory (counted in ``DeliveryCounters/storageFailures``)
/// and its instance hears the documented code.
actor DeliveryQueue {
    /// A caller of ``waitUntilSettled(orBackingOff:)``.
    struct Waiter {
        let acceptsBackoff: Bool
        let continuation: CheckedContinuation<QueueSettlement, Never>
    }

    let baseURL: URL
    let storage: any MeterStorage
    let transport: any PingTransport
    let clock: any MeterClock
    var machine: DeliveryMachine
    /// Each attached instance's logger (diagnostics are logged through every one).
    var reporters: [UUID: EventReporter] = [:]
    /// How each attached instance hears of its pings' outcomes: a `report` command to its runner.
    var notifiers: [UUID: @Sendable (MeterEventCode, String) -> Void] = [:]
    var waiters: [Waiter] = []
    /// The upload loop while one runs, and the retry wait inside it: owned here, cancelled with the queue.
    var uploadTask: Task<Void, Never>?
    var backoffTask: Task<Void, Never>?
    private var opened = false
    /// The latest diagnostics, readable from any thread without waiting for the queue.
    nonisolated let published = Locked(DeliveryDiagnostics())

    init(baseURL: URL, environment: MeterEnvironment) {
        self.baseURL = baseURL
        storage = environment.storage
        transport = environment.transport
        clock = environment.clock
        machine = DeliveryMachine(policy: environment.retryPolicy, bounds: environment.queueBounds)
    }

    deinit {
        // Only the instances keep the queue: with none left, what is queued waits on disk for the
        // next launch.
        uploadTask?.cancel()
        backoffTask?.cancel()
    }

    /// Reads what a previous process left (queued pings, credit checkpoints, which it removes as
    /// it reads them) and hands it to the machine, which decides what it becomes
    /// (``DeliveryMachine/opened(records:checkpoints:failure:reportingTo:at:)``).
    private func open(reportingTo opener: UUID) {
        guard !opened else { return }
        opened = true
        var records: [(key: String, record: PingRecord?)] = []
        var checkpoints: [PingRecord?] = []
        var failure: (any Error)?
        do {
            for key in try storage.keys(prefix: DeliveryMachine.recordPrefix) {
                let data = try storage.load(key)
                records.append((key, data.flatMap(PingRecordCodec.decode)))
            }
            checkpoints = try openCheckpoints()
        } catch {
            failure = error
        }
        perform(machine.opened(records: records, checkpoints: checkpoints, failure: failure, reportingTo: opener, at: clock.now()))
        publish()
        startUploading()
    }

    /// Reads and removes the credit checkpoints a previous process left: each whole record with the
    /// credit form written against it since, if any (D14). A credit form whose whole record is
    /// gone (a kill between their removals) says nothing alone and is removed.
    private func openCheckpoints() throws -> [PingRecord?] {
        let keys = try storage.keys(prefix: DeliveryMachine.checkpointPrefix)
        let present = Set(keys)
        let suffix = InstanceCheckpoints.creditSuffix
        var checkpoints: [PingRecord?] = []
        for key in keys where !key.hasSuffix(suffix) {
            var record = try storage.load(key).flatMap(PingRecordCodec.decode)
            let creditKey = key + suffix
            if present.contains(creditKey) {
                if let form = try storage.load(creditKey), let whole = record,
                   let updated = CheckpointCredit.apply(form, to: whole) {
                    record = updated
                }
                try storage.save(creditKey, nil)
            }
            try storage.save(key, nil)
            checkpoints.append(record)
        }
        for key in keys where key.hasSuffix(suffix) && !present.contains(String(key.dropLast(suffix.count))) {
            try storage.save(key, nil)
        }
        return checkpoints
    }

    // MARK: Producers

    /// Registers an instance that reports through this queue; the first one opens it.
    func attach(_ instance: UUID, reporter: EventReporter, notify: @escaping @Sendable (MeterEventCode, String) -> Void) {
        reporters[instance] = reporter
        notifiers[instance] = notify
        machine.attach(instance)
        open(reportingTo: instance)
        // An earlier process's pings held while every instance was disabled may go now.
        startUploading()
    }

    /// Forgets an instance: its pause and its reporter.
    func detach(_ instance: UUID) {
        reporters[instance] = nil
        notifiers[instance] = nil
        if machine.detach(instance) { resumed() }
    }

    /// Persists `record`, built by `origin`, then schedules it. Once this returns the record is
    /// saved: the runner then removes the checkpoint it replaces (the record carries the
    /// checkpoint's ping id, so a crash in between cannot credit anything twice: D4).
    func enqueue(_ record: PingRecord, origin: UUID) {
        perform(machine.enqueued(record, origin: origin, at: clock.now()))
        publish()
        startUploading()
    }

    /// A runner failed to write its instance's credit checkpoint: counted in the diagnostics.
    func checkpointFailed() {
        machine.checkpointFailed()
        publish()
    }

    /// Holds `instance`'s pings while it is disabled (`appDisableApi = true`); they stay queued.
    func pause(_ instance: UUID) {
        machine.pause(instance)
        publish()
        notifyWaiters()
    }

    /// Lifts `instance`'s pause.
    func resume(_ instance: UUID) {
        if machine.resume(instance) { resumed() }
    }

    private func resumed() {
        publish()
        startUploading()
        notifyWaiters()
    }

    /// Tries now instead of waiting out a backoff (on `end`, in the background, on release),
    /// unless the collector asked to wait (429 / Retry-After).
    func deliverPromptly() {
        guard machine.mayCutBackoffShort else { return }
        backoffTask?.cancel()
        startUploading()
    }

    // MARK: Running the machine's actions

    /// Runs `actions` in order; a failed write's follow-up actions run next.
    func perform(_ actions: [DeliveryAction]) {
        var pending = actions
        var index = 0
        while index < pending.count {
            let followUp = perform(pending[index])
            index += 1
            // Only a failed write has a follow-up: an empty insert would still copy the actions.
            if !followUp.isEmpty { pending.insert(contentsOf: followUp, at: index) }
        }
    }

    /// Runs one action; answers the machine's follow-up when a write failed (none, and no
    /// allocation, otherwise).
    @discardableResult
    func perform(_ action: DeliveryAction) -> [DeliveryAction] {
        var followUp: [DeliveryAction] = []
        switch action {
        case .save(let key, let record, let serial):
            do { try storage.save(key, PingRecordCodec.encode(record)) } catch {
                followUp = machine.saveFailed(serial: serial, error)
            }
        case .rewrite(let key, let record):
            do { try storage.save(key, PingRecordCodec.encode(record)) } catch { machine.rewriteFailed() }
        case .delete(let key, let origin):
            do { try storage.save(key, nil) } catch { followUp = machine.deleteFailed(origin: origin, error) }
        case .report(let code, let message, let origins):
            // Through each instance's runner, the single writer of its events, so they reach
            // the delegate in order with the others; an earlier process's pings have no one to tell.
            for origin in origins { notifiers[origin]?(code, message) }
        }
        return followUp
    }
}
