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

/// The retry rules, as a pure function of the outcome, the number of failures in a row and a
/// random number, so that a table test can walk every case.
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

    /// Statuses that mean the collector will never accept this ping.
    public static let terminalStatuses: Set<Int> = [400, 401, 403, 404, 410, 422]
    /// Of those and the other 4xx, the statuses that refuse what a ping says rather than who sent
    /// it: a field the census does not take (400), a URL too long for a proxy on the way (414).
    public static let descriptionRefusedStatuses: Set<Int> = [400, 414]

    /// Creates the default policy.
    public init() {}

    /// The decision after an attempt that ended with `outcome`, the `failures`-th failure in a row
    /// counting this one, with `random` in 0..<1.
    public func decide(_ outcome: TransportOutcome, failures: Int, random: Double) -> RetryDecision {
        switch outcome {
        case .response(let status, _, _) where (200..<300).contains(status):
            return .delivered
        case .response(let status, _, _) where Self.descriptionRefusedStatuses.contains(status):
            return .resendWithoutDescription
        case .response(let status, _, _) where Self.terminalStatuses.contains(status):
            return .drop
        case .response(let status, _, _) where (400..<500).contains(status) && status != 408 && status != 429:
            // Other client errors: sending the same bytes again cannot succeed either.
            return .drop
        case .response(_, let retryAfter, _):
            let wait = backoff(failures: failures, random: random)
            return .retry(after: max(wait, min(retryAfter ?? 0, maxRetryAfter)))
        case .failure, .requestNotCreated, .exchangeFailed:
            // No answer: the same bytes may pass once the network, the platform or the collector allows.
            return .retry(after: backoff(failures: failures, random: random))
        }
    }

    /// `baseDelay · 2^(failures−1)`, capped at `maxDelay`, plus up to `jitter` of it.
    public func backoff(failures: Int, random: Double) -> Double {
        let exponent = Double(min(max(failures, 1), 30) - 1)
        let wait = min(maxDelay, baseDelay * pow2(exponent))
        return wait * (1 + jitter * min(max(random, 0), 1))
    }

    private func pow2(_ exponent: Double) -> Double {
        var result = 1.0
        for _ in 0..<Int(exponent) { result *= 2 }
        return result
    }
}

/// How much the durable queue may hold. When a bound is passed, the oldest pings are dropped,
/// counted by reason and reported to the instance that built them (docs/protocol.md §3).
///
/// The defaults hold what the field keeps offline (Snowplow 1,000 events for 30 days, comScore
/// 2,000 for 31, Bitmovin 5,000 for 14; the original SDK's public config, 300 pings): a month
/// offline at one ping a minute of viewing, an hour a day, is about 1,900 pings (~1.5 MiB).
public struct QueueBounds: Sendable, Equatable {
    /// Pings.
    public var maxCount: Int
    /// Bytes of stored pings.
    public var maxBytes: Int
    /// Age in seconds of the oldest ping kept.
    public var maxAge: Double

    /// Creates bounds: by default 5,000 pings, 8 MiB and 31 days.
    public init(maxCount: Int = 5_000, maxBytes: Int = 8 << 20, maxAge: Double = 31 * 86_400) {
        self.maxCount = maxCount
        self.maxBytes = maxBytes
        self.maxAge = maxAge
    }
}
