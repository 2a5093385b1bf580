/// One upload's run of failures: how many in a row, and whether the collector asked to wait. The
/// app SDK's delivery machine and the browser SDK's page keep one each and fold every attempt's
/// answer into it, so both decide alike (decisions.md D2, B6).
public struct RetryState: Sendable, Equatable {
    /// Failed attempts in a row, the last one included.
    public private(set) var consecutiveFailures = 0
    /// The last retry was asked for by the collector (429, or a `Retry-After`): a backoff is then
    /// not cut short.
    public private(set) var rateLimited = false

    /// A state with no failure.
    public init() {}

    /// Folds `answer` in and returns what to do with what was sent; `random` in 0..<1 jitters the
    /// wait.
    public mutating func record(_ answer: DeliveryAnswer, policy: RetryPolicy, random: Double) -> RetryDecision {
        let decision = policy.decide(answer, failures: consecutiveFailures + 1, random: random)
        switch decision {
        case .delivered:
            consecutiveFailures = 0
            rateLimited = false
        case .drop, .resendWithoutDescription:
            consecutiveFailures = 0
        case .retry:
            consecutiveFailures += 1
            if case .status(let status, let retryAfter) = answer { rateLimited = status == 429 || retryAfter != nil }
        }
        return decision
    }
}
