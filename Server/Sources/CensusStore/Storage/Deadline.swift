import NIOConcurrencyHelpers
import NIOCore

/// Returns what `operation` returns, or throws ``CensusError/noAnswer(within:)`` once `timeout` has passed without
/// an answer. The operation is then cancelled and left to end on its own, not awaited: a
/// PostgreSQL query does not answer cancellation, and waiting for it would make its own time the
/// deadline (a silent server holds it until TCP gives up).
package func answering<Result: Sendable>(
    within timeout: Duration, _ operation: @escaping @Sendable () async throws -> Result
) async throws -> Result {
    let settled = NIOLockedValueBox(false)
    /// True for the first caller only: the continuation is resumed once.
    let claim: @Sendable () -> Bool = {
        settled.withLockedValue { done in
            defer { done = true }
            return !done
        }
    }
    return try await withCheckedThrowingContinuation { continuation in
        let work = Task {
            do {
                let value = try await operation()
                if claim() { continuation.resume(returning: value) }
            } catch {
                if claim() { continuation.resume(throwing: error) }
            }
        }
        Task {
            try? await Task.sleep(for: timeout)
            guard claim() else { return }
            work.cancel()
            continuation.resume(throwing: CensusError.noAnswer(within: timeout))
        }
    }
}

/// Returns what `operation` returns, or throws ``CensusError/noAnswer(within:)`` (saying `bound`)
/// once `timeout` has passed: ``answering(within:_:)`` for a group commit's batch, whose commit
/// `start` runs where the database wants it (its connections' event loop), and whose timer runs
/// on `loop` (the fast path's event loop) when there is one, else in a task that sleeps.
func answering<Result: Sendable>(
    within timeout: TimeAmount, bound: Duration, timerOn loop: (any EventLoop)?,
    startedBy start: (@escaping @Sendable () async -> Void) -> Void,
    _ operation: @escaping @Sendable () async throws -> Result
) async throws -> Result {
    let settled = NIOLockedValueBox(false)
    let claim: @Sendable () -> Bool = { settled.withLockedValue { done in defer { done = true }; return !done } }
    return try await withCheckedThrowingContinuation { continuation in
        let expire: @Sendable () -> Void = {
            if claim() { continuation.resume(throwing: CensusError.noAnswer(within: bound)) }
        }
        let cancelTimer: @Sendable () -> Void
        if let loop {
            let timer = loop.scheduleTask(in: timeout, expire)
            cancelTimer = { timer.cancel() }
        } else {
            let timer = Task {
                try await Task.sleep(for: .nanoseconds(timeout.nanoseconds))
                expire()
            }
            cancelTimer = { timer.cancel() }
        }
        start {
            do {
                let value = try await operation()
                if claim() { cancelTimer(); continuation.resume(returning: value) }
            } catch {
                if claim() { cancelTimer(); continuation.resume(throwing: error) }
            }
        }
    }
}
