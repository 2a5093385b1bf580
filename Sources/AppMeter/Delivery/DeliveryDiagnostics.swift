/// What became of pings, for the diagnostics dictionary, DEBUG logs and tests.
public struct DeliveryCounters: Sendable, Equatable {
    /// Pings the collector accepted.
    public var delivered: Int
    /// Pings the collector refused for good (4xx).
    public var rejected: Int
    /// The seconds those pings credited: lost, unless the app measures them again.
    public var rejectedSeconds: Int64
    /// Pings the collector refused (400, 414) and that were sent once more without their
    /// descriptive fields, their credit unchanged.
    public var resentWithoutDescription: Int
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
    /// Storage operations that failed (the pings concerned were kept in memory).
    public var storageFailures: Int

    /// Creates counters.
    public init(
        delivered: Int = 0, rejected: Int = 0, retried: Int = 0, droppedOverflow: Int = 0,
        droppedExpired: Int = 0, corruptRecords: Int = 0, recovered: Int = 0, storageFailures: Int = 0,
        rejectedSeconds: Int64 = 0, resentWithoutDescription: Int = 0
    ) {
        self.delivered = delivered
        self.rejected = rejected
        self.rejectedSeconds = rejectedSeconds
        self.resentWithoutDescription = resentWithoutDescription
        self.retried = retried
        self.droppedOverflow = droppedOverflow
        self.droppedExpired = droppedExpired
        self.corruptRecords = corruptRecords
        self.recovered = recovered
        self.storageFailures = storageFailures
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
    /// Of the queued pings, those storage refused: kept in memory only, lost if the app is killed.
    public var inMemoryOnly: Int
    /// True while sending is paused by `appDisableApi = true`.
    public var paused: Bool
    /// Failed attempts in a row (0 when the collector answers).
    public var consecutiveFailures: Int
    /// While a retry waits: when it is due.
    public var nextAttempt: MeterInstant?

    /// Creates diagnostics (all zero: an empty queue).
    public init(
        counters: DeliveryCounters = DeliveryCounters(), queued: Int = 0, queuedBytes: Int = 0, inMemoryOnly: Int = 0,
        paused: Bool = false, consecutiveFailures: Int = 0, nextAttempt: MeterInstant? = nil
    ) {
        self.counters = counters
        self.queued = queued
        self.queuedBytes = queuedBytes
        self.inMemoryOnly = inMemoryOnly
        self.paused = paused
        self.consecutiveFailures = consecutiveFailures
        self.nextAttempt = nextAttempt
    }

    /// The documented diagnostics dictionary.
    public var dictionary: [String: any Sendable] {
        [
            "queued": queued, "queuedBytes": queuedBytes, "inMemoryOnly": inMemoryOnly, "paused": paused,
            "consecutiveFailures": consecutiveFailures, "nextAttempt": nextAttempt?.secondsSince1970 ?? 0,
            "delivered": counters.delivered, "retried": counters.retried, "recovered": counters.recovered,
            "dropped.rejected": counters.rejected, "dropped.rejectedSeconds": counters.rejectedSeconds,
            "resentWithoutDescription": counters.resentWithoutDescription, "dropped.overflow": counters.droppedOverflow,
            "dropped.expired": counters.droppedExpired, "corruptRecords": counters.corruptRecords, "storageFailures": counters.storageFailures,
        ]
    }
}
