import Foundation
import Logging

/// The owner of one instance's ``MeterCore``: takes commands from the ``CommandInbox`` in call
/// order, hands them to the core, and does the effects the core returns (delivery, checkpoints,
/// events, logs, persistence), in order. The only place where the core's decisions meet I/O.
actor MeterRunner {
    /// Names this instance in the shared delivery queue (its checkpoint, its pings' outcomes).
    let instanceID: UUID
    /// What the runner changes for every command. Reached through ``work``.
    private struct Work {
        var core: MeterCore
        /// The core's outlook after the last command (never read from `core` itself, which copies it).
        var outlook: MeterOutlook
        /// The call trace, in a development configuration (``AppInfo/tracesCalls``).
        var tracer: CallTraceRecorder?
        var effects: [MeterEffect] = []
        var deferredCommands: [MeterCommand] = []
        /// The instance's credit checkpoints, written here rather than by the delivery queue: one
        /// every five seconds of playback, no hop to another actor for it (decisions.md D14).
        var checkpoints: InstanceCheckpoints
    }

    /// The runner's working state at an address of its own, as ``Locked`` keeps its value: an
    /// actor's stored `var` costs a run-time exclusivity check (a thread-local access set) at each
    /// access, two to four a command, which came to 5 % of an hour of viewing's instructions
    /// (docs/performance.md). The actor's isolation is what keeps these accesses exclusive.
    private let workStorage = WorkStorage()
    private var work: UnsafeMutablePointer<Work> { workStorage.pointer }
    /// Reads the arguments callers handed over unread (decisions.md E12).
    private let reader: ArgumentReader
    private let delivery: DeliveryQueue
    private let reporter: EventReporter
    private let snapshot: Locked<MeterSnapshot>
    private let storage: any MeterStorage
    private let clock: any MeterClock
    /// Tells the instance of a failure as a later command, as the queue tells it of its pings.
    private var tell: (@Sendable (MeterEventCode, String) -> Void)?

    init(
        instanceID: UUID = UUID(), reader: ArgumentReader, core: MeterCore, tracer: CallTraceRecorder? = nil, delivery: DeliveryQueue,
        reporter: EventReporter, snapshot: Locked<MeterSnapshot>, environment: MeterEnvironment
    ) {
        self.instanceID = instanceID
        self.reader = reader
        workStorage.pointer.initialize(to: Work(core: core, outlook: core.outlook, tracer: tracer,
                                                checkpoints: InstanceCheckpoints(instanceID)))
        workStorage.pointer.pointee.effects.reserveCapacity(8)
        self.delivery = delivery
        self.reporter = reporter
        self.snapshot = snapshot
        storage = environment.storage
        clock = environment.clock
    }

    /// Owns ``work``'s memory (the runner initializes it, once, in its `init`).
    private final class WorkStorage: @unchecked Sendable {
        let pointer = UnsafeMutablePointer<Work>.allocate(capacity: 1)

        deinit {
            pointer.deinitialize(count: 1)
            pointer.deallocate()
        }
    }

    /// Runs until the inbox is closed and drained, then releases what is open.
    func run(_ inbox: CommandInbox) async {
        // The first instance to attach opens (and recovers) the queue, before anyone enqueues.
        // The queue reports delivery outcomes as commands, so this runner stays the single writer
        // of the instance's events.
        let clock = self.clock
        let tell: @Sendable (MeterEventCode, String) -> Void = { code, message in
            inbox.push(.command(TimedCommand(.report(code, message), at: clock.now())))
        }
        self.tell = tell
        await delivery.attach(instanceID, reporter: reporter, notify: tell)
        var batch: [CommandInbox.Item] = []
        batch.reserveCapacity(16)
        while case .batch(let wakeUpDue) = await inbox.next(
            into: &batch, wakeUp: work.pointee.outlook.requestedWakeUp, lazyMayWait: work.pointee.outlook.playheadsMayWait
        ) {
            for item in batch {
                switch item {
                case .command(let timed):
                    // Awaited only when there is something to await: a playhead, as a rule, has no
                    // effect, and an async call costs a frame on the task's allocator.
                    if wakeUpIsDue(by: timed.time) { await handleWakeUps(dueBy: timed.time) }
                    if apply(timed.command, at: timed.time) { await finish(timed.command, at: timed.time) }
                case .deferred(let call, let time):
                    if wakeUpIsDue(by: time) { await handleWakeUps(dueBy: time) }
                    await handle(call, at: time)
                case .barrier(let barrier):
                    await handleWakeUps(dueBy: clock.now())
                    // Whoever waits (flush, a test) sees the calls so far in the trace too.
                    if let batch = work.pointee.tracer?.flush() {
                        await delivery.enqueue(.trace(batch), origin: instanceID)
                    }
                    publish()
                    barrier.resume()
                }
            }
            if wakeUpDue {
                // The timer fired: the parts' deadlines first, then the playhead tick's.
                let now = clock.now()
                await handleWakeUps(dueBy: now)
                await handle(.wakeUp, at: now)
            }
            publish()
        }
        let released = clock.now()
        await handle(.release, at: released)
        // After the release's last pings are queued: the instance's last event (decisions.md E2).
        reporter.report(.shutdown, "the instance was released: measurement ended, its pings stay queued", at: released)
        publish()
        await delivery.detach(instanceID)
    }

    /// Hands the core every wake-up its parts asked for that is due by `time`, each at its own
    /// deadline, so that time-driven pings come out in time order with the calls around them.
    /// (The playhead tick is the inbox's timer only: a playhead never costs the core a wake-up.)
    private func handleWakeUps(dueBy time: MeterInstant) async {
        // Each wake-up moves the next one later; the bound only guards against a core that would not.
        for _ in 0..<10_000 {
            guard let due = work.pointee.outlook.partsWakeUp, due <= time else { return }
            await handle(.wakeUp, at: due)
        }
    }

    /// Whether a part's wake-up is due by `time`.
    private func wakeUpIsDue(by time: MeterInstant) -> Bool {
        guard let due = work.pointee.outlook.partsWakeUp else { return false }
        return due <= time
    }

    /// Reads `call` into its commands and hands them to the core, each at the call's time.
    private func handle(_ call: DeferredCall, at time: MeterInstant) async {
        var commands: [MeterCommand] = []
        swap(&commands, &work.pointee.deferredCommands)
        reader.read(call, into: &commands)
        for command in commands {
            if apply(command, at: time) { await finish(command, at: time) }
        }
        commands.removeAll(keepingCapacity: true)
        swap(&commands, &work.pointee.deferredCommands)
    }

    private func handle(_ command: MeterCommand, at time: MeterInstant) async {
        if apply(command, at: time) { await finish(command, at: time) }
    }

    /// Hands `command` to the core; true when it left effects to do or a trace to record
    /// (``finish(_:at:)``).
    private func apply(_ command: MeterCommand, at time: MeterInstant) -> Bool {
        var due: [MeterEffect] = []
        swap(&due, &work.pointee.effects)
        work.pointee.outlook = work.pointee.core.handle(command, at: time, into: &due)
        let hasMore = !due.isEmpty || work.pointee.tracer != nil
        swap(&due, &work.pointee.effects)
        return hasMore
    }

    /// Does the effects the core returned for `command`, in order, and records its trace.
    private func finish(_ command: MeterCommand, at time: MeterInstant) async {
        var due: [MeterEffect] = []
        swap(&due, &work.pointee.effects)
        for effect in due {
            await execute(effect, at: time)
        }
        if let batch = work.pointee.tracer?.record(command, at: time, effects: due[...], state: work.pointee.outlook.state) {
            await delivery.enqueue(.trace(batch), origin: instanceID)
        }
        due.removeAll(keepingCapacity: true)
        swap(&due, &work.pointee.effects)
    }

    private func execute(_ effect: MeterEffect, at time: MeterInstant) async {
        switch effect {
        case .enqueue(let record, let slot):
            await delivery.enqueue(record, origin: instanceID)
            // Saved by now: the checkpoint it replaces goes (D4).
            if let slot { await writeCheckpoint(nil, slot: slot, creditOnly: false) }
        case .checkpoint(let record, let slot, let creditOnly):
            await writeCheckpoint(record, slot: slot, creditOnly: creditOnly)
        case .report(let code, let description):
            reporter.report(code, description, at: time)
        case .log(let level, let message):
            reporter.log.log(level: level.loggerLevel, "\(message)")
        case .setLogLevel(let level):
            reporter.setLogLevel(level.loggerLevel)
        case .pauseDelivery:
            await delivery.pause(instanceID)
        case .resumeDelivery:
            await delivery.resume(instanceID)
        case .deliverPromptly:
            await delivery.deliverPromptly()
        case .markRun(let running):
            do {
                try storage.save(AppRunState.key, running ? AppRunState.running : AppRunState.clean)
            } catch {
                let issue = StorageIssue.write("the app run's state", error, instead: "the next launch may flag a crash wrongly")
                reporter.report(issue.code, issue.message, at: time)
            }
        case .persistOptOut(let optOut):
            do {
                try storage.save(PrivacyProfile.optOutKey, PrivacyProfile.storedChoice(optOut))
            } catch {
                let issue = StorageIssue.write("the user's opt-out choice", error, instead: "it holds until the app quits")
                reporter.report(issue.code, issue.message, at: time)
            }
        }
    }

    /// Stores (or, with nil, removes) the instance's credit checkpoint in `slot`: a provisional
    /// ping for the seconds credited since its last ping, which the next launch sends if the
    /// process dies first. A failed write is counted by the queue and told to the instance: a
    /// kill now loses more.
    private func writeCheckpoint(_ record: PingRecord?, slot: CheckpointSlot, creditOnly: Bool) async {
        do {
            switch work.pointee.checkpoints.plan(record, slot: slot, creditOnly: creditOnly) {
            case .whole(let key, let record): try storage.save(key, PingRecordCodec.encode(record))
            case .credit(let key, let form): try storage.save(key, form)
            case .remove(let keys):
                try storage.save(keys.credit, nil)
                try storage.save(keys.whole, nil)
            }
        } catch {
            work.pointee.checkpoints.writeFailed(slot)
            let issue = StorageIssue.write("a credit checkpoint", error, instead: "a kill now loses the credit since the last ping")
            tell?(issue.code, issue.message)
            await delivery.checkpointFailed()
        }
    }

    /// Makes what the core has done readable from any thread. The snapshot's totals take the credit
    /// added since the last publish in place, so that neither side shares the other's dictionary
    /// (``CreditChanges``); after an overflow, a copy of the core's totals.
    private func publish() {
        let outlook = work.pointee.outlook
        let credits = work.pointee.core.takeCredits()
        let totals = credits.overflowed ? work.pointee.core.progress.creditedSeconds : nil
        snapshot.withLock { published in
            published.state = outlook.state
            published.ignoredCalls = outlook.ignoredCalls
            published.pingsBuilt = outlook.pingsBuilt
            if let totals {
                published.creditedSeconds = totals
            } else {
                credits.forEach { published.creditedSeconds[$0.key, default: 0] += $0.seconds }
            }
        }
    }
}
