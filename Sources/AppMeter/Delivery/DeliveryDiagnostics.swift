/// What became of pings, for the diagnostics dictionary, DEBUG logs and tests.
public struct DeliveryCounters: Sendable, Equatable {
    /// Pings the collector accepted.
    public var delivered: Int
    /// Pings the collector refused for good (4xx).
    public var rejected: Int
    /// Attempts that will be tried again.
    public var retried: Int
    /// Pings dropped because the queue was over its count or byte bound.
    public var droppedOverflow: Int
    /// Pings dropped because they were older than the age bound.
    public var droppedExpired: Int
    /// Damaged records found in storage and skipped.
    public var corruptRecords: Int
    /// Pings rebuilt from credit checkpoints after the process died.
    public var recovered: Int

    /// Creates counters.
    public init(
        delivered: Int = 0, rejected: Int = 0, retried: Int = 0, droppedOverflow: Int = 0,
        droppedExpired: Int = 0, corruptRecords: Int = 0, recovered: Int = 0
    ) {
        self.delivered = delivered
        self.rejected = rejected
        self.retried = retried
        self.droppedOverflow = droppedOverflow
        self.droppedExpired = droppedExpired
        self.corruptRecords = corruptRecords
        self.recovered = recovered
    }
}

/// A snapshot of a delivery queue.
public struct DeliveryDiagnostics: Sendable, Equatable {
    /// Counters since the queue was opened in this process.
    public var counters: DeliveryCounters
    /// Pings waiting in the queue.
    public var queued: Int
    /// Their approximate size in bytes.
    public var queuedBytes: Int
    /// True while sending is paused by `appDisableApi = true`.
    public var paused: Bool
    /// Failed attempts in a row (0 when the collector answers).
    public var consecutiveFailures: Int

    /// The documented diagnostics dictionary.
    public var dictionary: [String: any Sendable] {
        [
            "queued": queued, "queuedBytes": queuedBytes, "paused": paused,
            "consecutiveFailures": consecutiveFailures,
            "delivered": counters.delivered, "retried": counters.retried, "recovered": counters.recovered,
            "dropped.rejected": counters.rejected, "dropped.overflow": counters.droppedOverflow,
            "dropped.expired": counters.droppedExpired, "corruptRecords": counters.corruptRecords,
        ]
    }
}
