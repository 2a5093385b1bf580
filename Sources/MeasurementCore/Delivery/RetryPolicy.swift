/// What to do with a ping (or a batch) after one delivery attempt.
public enum RetryDecision: Sendable, Equatable {
    /// The collector has it: remove it from the queue.
    case delivered
    /// The collector refused it for good: remove it and count it (and its seconds) as rejected.
    case drop
    /// The collector refused what the ping says: send it once more with its descriptive fields
    /// emptied (same id, same credit), or drop it as ``drop`` when it has none left to empty.
    case resendWithoutDescription
    /// Try again after this many seconds; the whole queue waits (one upload in flight per collector).
    case retry(after: Double)
}

/// What one delivery attempt came to, as far as the decision goes (decisions.md D2, D9): an HTTP
/// status, or no answer at all. The app SDK reads it from its transport's outcome, the browser SDK
/// from `fetch`'s.
public enum DeliveryAnswer: Sendable, Equatable {
    /// The collector (or something on the way) answered `status`; `retryAfter` is its
    /// `Retry-After` in seconds, when it sent one and the platform shows it.
    case status(Int, retryAfter: Double?)
    /// No HTTP answer: unreachable, the request not created, or the exchange failed.
    case noAnswer
}

/// The retry rules, as a pure function of the answer, the number of failures in a row and a
/// random number, so that a table test can walk every case. The app and browser SDKs use the
/// same (decisions.md D2, B6).
public struct RetryPolicy: Sendable, Equatable {
    /// The first wait.
    public var baseDelay: Double = 1
    /// The longest wait computed by backoff.
    public var maxDelay: Double = 300
    /// Up to this fraction is added to each backoff wait, so that devices that failed together do
    /// not retry together.
    public var jitter: Double = 0.2
    /// The longest `Retry-After` honoured.
    public var maxRetryAfter: Double = 3600

    /// Creates the default policy.
    public init() {}

    /// The decision after an attempt that ended with `answer`, the `failures`-th failure in a row
    /// counting this one, with `random` in 0..<1. A 2xx is delivered, a 4xx but 408 and 429 is
    /// final (D2; 400 and 414: D9), anything else (3xx included) is retried.
    public func decide(_ answer: DeliveryAnswer, failures: Int, random: Double) -> RetryDecision {
        switch answer {
        case .status(let status, let retryAfter):
            // A switch, not a set: the browser's engine carries no hashing for it (B11). 400 and 414
            // refuse what a ping says rather than who sent it (D9).
            switch status {
            case 200..<300: return .delivered
            case 400, 414: return .resendWithoutDescription
            case 408, 429: break
            case 400..<500: return .drop   // sending the same bytes again cannot succeed
            default: break
            }
            let wait = backoff(failures: failures, random: random)
            return .retry(after: max(wait, min(retryAfter ?? 0, maxRetryAfter)))
        case .noAnswer:
            // The same bytes may pass once the network, the platform or the collector allows.
            return .retry(after: backoff(failures: failures, random: random))
        }
    }

    /// `baseDelay · 2^(failures−1)`, capped at `maxDelay`, plus up to `jitter` of it.
    public func backoff(failures: Int, random: Double) -> Double {
        let exponent = min(max(failures, 1), 30) - 1
        var power = 1.0
        for _ in 0..<exponent { power *= 2 }
        let wait = min(maxDelay, baseDelay * power)
        return wait * (1 + jitter * min(max(random, 0), 1))
    }
}
