package import CensusStore
package import MeterWire

/// What became of a request, told once: ``CensusEvents/record(_:)`` fans each out to the counters
/// (`GET /api/v1/stats`), `/metrics`, the live feed and the log, so no route counts one thing in
/// one place and forgets another.
package enum CensusEvent {
    /// A ping committed: stored for the first time, or a duplicate of one stored.
    case pingCommitted(IncomingPing, PingWriter.Outcome)
    /// A request refused, in the category `/metrics` counts it under.
    case refused(reason: String, category: RefusalCategory)
    /// A refusal not recorded: the rejects' budget had no room (``StorageBudget``).
    case refusalOverBudget
    /// A refusal the store failed to record.
    case refusalNotRecorded(any Error)
    /// A write the store failed: the sender is told to retry.
    case storageFailed(any Error)
    /// A trace batch refused for the traces' budget.
    case tracesOverBudget
    /// A trace batch stored: `new` of its entries were not stored before.
    case traceStored(CallTraceBatch, new: Int)
    /// A config request answered (the SDK's, or a page's configuration file).
    case configAnswered
    /// A Google AMP cloud-API request stored, or past its page view's limit (AMP5).
    case ampEvent(credited: Bool)
    /// A Google AMP `prd=session` ping accepted.
    case ampSession
    /// A viewability ping stored for the first time.
    case viewabilityStored(IncomingViewability)
}
