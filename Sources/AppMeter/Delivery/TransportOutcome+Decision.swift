extension TransportOutcome {
    /// What the retry rules read of the outcome (the core's `DeliveryAnswer`).
    public var answer: DeliveryAnswer {
        switch self {
        case .response(let status, let retryAfter, _): .status(status, retryAfter: retryAfter)
        case .failure, .requestNotCreated, .exchangeFailed: .noAnswer
        }
    }
}

extension RetryPolicy {
    /// The decision after an attempt that ended with `outcome` (``decide(_:failures:random:)``
    /// on its ``TransportOutcome/answer``).
    public func decide(_ outcome: TransportOutcome, failures: Int, random: Double) -> RetryDecision {
        decide(outcome.answer, failures: failures, random: random)
    }
}
