/// How much a durable ping queue may hold (decisions.md D7, B6). When a bound is passed, the
/// oldest pings are dropped, counted by reason and reported to the instance that built them
/// (docs/protocol.md §3).
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

    /// How many of the oldest pings go when `count` are queued: the count bound alone, for a
    /// queue that does not measure bytes (the browser's).
    public func overflow(count: Int) -> Int { max(0, count - maxCount) }
}
