import CensusStore

/// What the server has received since it started.
package struct CensusCounters: Sendable, Equatable, Codable {
    /// Pings stored for the first time.
    package var stored = 0
    /// Pings whose id was already stored (re-deliveries).
    package var duplicates = 0
    /// Requests refused with HTTP 400 (or 403, 413).
    package var rejected = 0
    /// Refused requests not recorded: the rejects' budget was full (``StorageBudget``).
    package var rejectsNotRecorded = 0
    /// Trace batches answered 503: the traces' budget was full.
    package var tracesOverBudget = 0
    /// Pings that could not be stored (HTTP 503: the SDK retries).
    package var storageFailures = 0
    /// Of those, the ones answered "may have stored this": written, and no answer came in time or
    /// the commit was never confirmed (census-decisions.md S47, S48).
    package var storageUnconfirmed = 0
    /// Config requests answered.
    package var configRequests = 0
    /// Google AMP cloud-API requests stored (each replays its page view).
    package var ampEvents = 0
    /// Google AMP cloud-API requests past their page view's limit: answered, neither stored nor
    /// credited (census-decisions.md AMP5).
    package var ampEventsNotCredited = 0
    /// Google AMP `prd=session` pings accepted.
    package var ampSessions = 0
    /// Viewability pings stored for the first time.
    package var viewabilityPings = 0
    /// Call trace entries stored for the first time.
    package var traceEntries = 0
}
