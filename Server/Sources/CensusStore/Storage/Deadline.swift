import NIOConcurrencyHelpers

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
