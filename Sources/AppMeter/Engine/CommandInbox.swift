/// The hand-off between callers' threads and an instance's engine.
///
/// `push` is what a public call costs on the caller's thread: one lock, one array append and, only
/// when the engine is waiting, one continuation resume. Commands come out in push order, in batches.
final class CommandInbox: Sendable {
    private struct State {
        var pending: [TimedCommand] = []
        var waiter: CheckedContinuation<Void, Never>?
        var closed = false
    }

    private let state = Locked(State())

    init() {
        state.withLock { $0.pending.reserveCapacity(16) }
    }

    /// Queues `command`; never blocks beyond the lock.
    func push(_ command: TimedCommand) {
        let waiter: CheckedContinuation<Void, Never>? = state.withLock { state in
            guard !state.closed else { return nil }
            state.pending.append(command)
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }

    /// Moves the next batch of commands into `batch` (emptied first, its capacity handed back to
    /// the inbox so that pushes do not allocate); returns false once the inbox is closed and empty.
    func next(into batch: inout [TimedCommand]) async -> Bool {
        batch.removeAll(keepingCapacity: true)
        while true {
            let closed = state.withLock { state in
                swap(&batch, &state.pending)
                return state.closed
            }
            if !batch.isEmpty { return true }
            if closed { return false }
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = state.withLock { state in
                    if !state.pending.isEmpty || state.closed { return true }
                    state.waiter = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        }
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
