/// The hand-off between callers' threads and an instance's runner.
///
/// `push` is what a public call costs on the caller's thread: one lock and one array append (the
/// runner hands its emptied buffer back, so steady-state pushes do not allocate). Items come out
/// in push order, in batches.
///
/// Waking a parked runner costs a thread wake-up (a system call, over a microsecond), so the
/// once-a-second `playheadPosition` never pays it while the core has asked for a wake-up
/// (``MeterCore/requestedWakeUp``): the runner parks with a timer on the instance's clock and
/// takes the playheads that arrived meanwhile. Every other call wakes it at once. Timestamps are
/// taken at the call, so pings are exact; only their processing waits.
final class CommandInbox: Sendable {
    /// What callers hand over. Every payload has a layout fixed at compile time (the continuations
    /// are boxed), so a push copies a few words without the run-time layout calls a resilient
    /// payload such as `CheckedContinuation` costs each copy.
    enum Item: Sendable {
        /// A call, stamped on the caller's thread.
        case command(TimedCommand)
        /// A call whose argument the runner reads (decisions.md E12), stamped on the caller's thread.
        case deferred(DeferredCall, at: MeterInstant)
        /// Resumed once every item before it has been handled (``MeterInstance/flush()``).
        case barrier(Barrier)
    }

    /// A waiter for everything pushed before it.
    final class Barrier: Sendable {
        private let continuation: CheckedContinuation<Void, Never>

        init(_ continuation: CheckedContinuation<Void, Never>) { self.continuation = continuation }

        /// Everything before it has been handled.
        func resume() { continuation.resume() }
    }

    /// What ``next(into:wakeUp:lazyMayWait:)`` found.
    enum Next: Sendable, Equatable {
        /// Items are in the batch (possibly none when only the timer fired); `wakeUpDue` says the
        /// requested wake-up has come.
        case batch(wakeUpDue: Bool)
        /// The inbox is closed and empty.
        case closed
    }

    /// The runner, parked: a reference, so that `State` keeps a fixed layout (see ``Item``).
    private final class Park: @unchecked Sendable {
        let waiter: CheckedContinuation<Bool, Never>
        /// The waiter accepts lazy items without being woken (it has a timer).
        let hasTimer: Bool
        /// Identifies this park, so a late timer cannot wake a later one.
        let id: Int
        /// The timer's task; written under the inbox's lock.
        var timer: Task<Void, Never>?

        init(waiter: CheckedContinuation<Bool, Never>, hasTimer: Bool, id: Int) {
            self.waiter = waiter
            self.hasTimer = hasTimer
            self.id = id
        }
    }

    /// What a push found: the inbox closed, nobody to wake, or a parked runner to wake.
    private enum Wake {
        case closed
        case none
        case park(Park)
    }

    private struct State {
        var pending: [Item] = []
        var park: Park?
        var parks = 0
        var closed = false
    }

    private let state = Locked(State())
    private let clock: any MeterClock

    init(clock: any MeterClock) {
        self.clock = clock
        state.withLock { $0.pending.reserveCapacity(16) }
    }

    /// Queues `item`; never blocks beyond the lock. A `lazy` item does not wake a runner that is
    /// parked with a timer.
    func push(_ item: Item, lazy: Bool = false) {
        let woken: Wake = state.withLock { state in
            guard !state.closed else { return .closed }
            state.pending.append(item)
            guard let park = state.park, !(lazy && park.hasTimer) else { return .none }
            state.park = nil
            return .park(park)
        }
        switch woken {
        case .closed:
            if case .barrier(let barrier) = item { barrier.resume() }
        case .none:
            return
        case .park(let park):
            // Read outside the lock: once the park is out of the state, nothing writes its timer.
            park.timer?.cancel()
            park.waiter.resume(returning: false)
        }
    }

    /// Moves the next batch into `batch` (emptied first, its capacity handed back to the inbox).
    /// Parks until an item arrives or, with `wakeUp`, until that instant on the clock; with
    /// `lazyMayWait`, lazy items do not end the park (the wake-up will take them).
    func next(into batch: inout [Item], wakeUp: MeterInstant?, lazyMayWait: Bool) async -> Next {
        batch.removeAll(keepingCapacity: true)
        var deadline = wakeUp
        while true {
            let closed = state.withLock { state in
                swap(&batch, &state.pending)
                return state.closed
            }
            if !batch.isEmpty { return .batch(wakeUpDue: deadline.map { $0 <= clock.now() } ?? false) }
            if closed { return .closed }
            if let due = deadline, due <= clock.now() { return .batch(wakeUpDue: true) }
            if await park(until: deadline, lazyMayWait: lazyMayWait) {
                deadline = nil
                state.withLock { swap(&batch, &$0.pending) }
                return .batch(wakeUpDue: true)
            }
        }
    }

    /// Returns true when the timer woke it, false for an item or close.
    private func park(until deadline: MeterInstant?, lazyMayWait: Bool) async -> Bool {
        await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let park: Park? = state.withLock { state in
                if !state.pending.isEmpty || state.closed { return nil }
                state.parks += 1
                let park = Park(waiter: continuation, hasTimer: deadline != nil && lazyMayWait, id: state.parks)
                state.park = park
                return park
            }
            guard let park else { return continuation.resume(returning: false) }
            guard let deadline else { return }
            let clock = self.clock
            let parkID = park.id
            let timer = Task { [weak self] in
                guard (try? await clock.sleep(until: deadline)) != nil else { return }
                self?.wakeFromTimer(parkID: parkID)
            }
            let stale = state.withLock { state -> Bool in
                guard let current = state.park, current === park else { return true }
                current.timer = timer
                return false
            }
            if stale { timer.cancel() }
        }
    }

    /// Wakes the runner if it is still in the park `parkID`.
    private func wakeFromTimer(parkID: Int) {
        let park = state.withLock { state -> Park? in
            guard let park = state.park, park.id == parkID else { return nil }
            state.park = nil
            return park
        }
        park?.waiter.resume(returning: true)
    }

    /// Stops accepting items; those already queued are still handled.
    func close() {
        let park = state.withLock { state -> Park? in
            state.closed = true
            defer { state.park = nil }
            return state.park
        }
        park?.timer?.cancel()
        park?.waiter.resume(returning: false)
    }
}
