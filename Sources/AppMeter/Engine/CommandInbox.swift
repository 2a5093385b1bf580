/// The hand-off between callers' threads and an instance's engine.
///
/// `push` is what a public call costs on the caller's thread: one lock and one array append (the
/// engine hands its emptied buffer back, so steady-state pushes do not allocate). Commands come out
/// in push order, in batches.
///
/// Waking a parked engine costs a thread wake-up (a system call, over a microsecond), so the
/// once-a-second `playheadPosition` never pays it: while the engine is processing it parks with a
/// timer (`lazyTick`) and picks up the playheads that arrived meanwhile; every other call wakes
/// it at once. Timestamps are taken at the call, so pings are exact; only their processing waits.
final class CommandInbox: Sendable {
    /// How long playheads may wait for the engine while it is processing
    /// (`MeterEnvironment.playheadProcessingDelay`).
    let lazyTick: Double

    private struct State {
        var pending: [TimedCommand] = []
        var waiter: CheckedContinuation<Void, Never>?
        /// The waiter accepts lazy commands without being woken (it has a timer).
        var waiterHasTimer = false
        /// Identifies the current park, so a late timer cannot wake a later one.
        var parkID = 0
        var closed = false
    }

    private let state = Locked(State())

    init(lazyTick: Double) {
        self.lazyTick = lazyTick
        state.withLock { $0.pending.reserveCapacity(16) }
    }

    /// Queues `command`; never blocks beyond the lock. A `lazy` command does not wake an engine
    /// that is parked with a timer.
    func push(_ command: TimedCommand, lazy: Bool = false) {
        let waiter: CheckedContinuation<Void, Never>? = state.withLock { state in
            guard !state.closed else { return nil }
            state.pending.append(command)
            guard !(lazy && state.waiterHasTimer) else { return nil }
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }

    /// Moves the next batch of commands into `batch` (emptied first, its capacity handed back to
    /// the inbox); returns false once the inbox is closed and empty. With `lazyWake`, lazy commands
    /// are collected for up to `lazyTick` seconds before the engine is woken for them.
    func next(into batch: inout [TimedCommand], lazyWake: Bool) async -> Bool {
        batch.removeAll(keepingCapacity: true)
        var waited = false
        while true {
            let closed = state.withLock { state in
                swap(&batch, &state.pending)
                return state.closed
            }
            if !batch.isEmpty { return true }
            if closed { return false }
            await park(withTimer: lazyWake && !waited)
            waited = true
        }
    }

    private func park(withTimer: Bool) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let parkID: Int? = state.withLock { state in
                if !state.pending.isEmpty || state.closed { return nil }
                state.waiter = continuation
                state.waiterHasTimer = withTimer
                state.parkID += 1
                return state.parkID
            }
            guard let parkID else { return continuation.resume() }
            if withTimer {
                let tick = lazyTick
                Task { [weak self] in
                    try? await Task.sleep(nanoseconds: UInt64(tick * 1_000_000_000))
                    self?.wake(parkID: parkID)
                }
            }
        }
    }

    /// Wakes the engine if it is still in the park `parkID`.
    private func wake(parkID: Int) {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard state.parkID == parkID else { return nil }
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }

    /// Stops accepting commands; those already queued are still processed.
    func close() {
        let waiter = state.withLock { state in
            state.closed = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }
}
