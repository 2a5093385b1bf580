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
    /// What callers hand over.
    enum Item: Sendable {
        /// A call, stamped on the caller's thread.
        case command(TimedCommand)
        /// Resumed once every item before it has been handled (``MeterInstance/flush()``).
        case barrier(CheckedContinuation<Void, Never>)
    }

    /// What ``next(into:wakeUp:)`` found.
    enum Next: Sendable, Equatable {
        /// Items are in the batch (possibly none when only the timer fired); `wakeUpDue` says the
        /// requested wake-up has come.
        case batch(wakeUpDue: Bool)
        /// The inbox is closed and empty.
        case closed
    }

    private struct State {
        var pending: [Item] = []
        var waiter: CheckedContinuation<Bool, Never>?
        /// The waiter accepts lazy items without being woken (it has a timer).
        var waiterHasTimer = false
        var timer: Task<Void, Never>?
        /// Identifies the current park, so a late timer cannot wake a later one.
        var parkID = 0
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
        let woken: (CheckedContinuation<Bool, Never>, Task<Void, Never>?)? = state.withLock { state in
            guard !state.closed else { return nil }
            state.pending.append(item)
            guard !(lazy && state.waiterHasTimer), let waiter = state.waiter else { return nil }
            state.waiter = nil
            defer { state.timer = nil }
            return (waiter, state.timer)
        }
        guard let (waiter, timer) = woken else {
            if case .barrier(let continuation) = item, state.withLock({ $0.closed }) { continuation.resume() }
            return
        }
        timer?.cancel()
        waiter.resume(returning: false)
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
            let parkID: Int? = state.withLock { state in
                if !state.pending.isEmpty || state.closed { return nil }
                state.waiter = continuation
                state.waiterHasTimer = deadline != nil && lazyMayWait
                state.parkID += 1
                return state.parkID
            }
            guard let parkID else { return continuation.resume(returning: false) }
            guard let deadline else { return }
            let clock = self.clock
            let timer = Task { [weak self] in
                guard (try? await clock.sleep(until: deadline)) != nil else { return }
                self?.wakeFromTimer(parkID: parkID)
            }
            let stale = state.withLock { state -> Bool in
                guard state.parkID == parkID, state.waiter != nil else { return true }
                state.timer = timer
                return false
            }
            if stale { timer.cancel() }
        }
    }

    /// Wakes the runner if it is still in the park `parkID`.
    private func wakeFromTimer(parkID: Int) {
        let waiter = state.withLock { state -> CheckedContinuation<Bool, Never>? in
            guard state.parkID == parkID else { return nil }
            defer {
                state.waiter = nil
                state.timer = nil
            }
            return state.waiter
        }
        waiter?.resume(returning: true)
    }

    /// Stops accepting items; those already queued are still handled.
    func close() {
        let (waiter, timer) = state.withLock { state in
            state.closed = true
            defer {
                state.waiter = nil
                state.timer = nil
            }
            return (state.waiter, state.timer)
        }
        timer?.cancel()
        waiter?.resume(returning: false)
    }
}
