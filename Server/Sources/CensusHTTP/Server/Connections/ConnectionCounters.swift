import CensusStore

/// What the census's connection limits did since it started (`GET /api/v1/stats`, `connections`).
package struct ConnectionCounters: Sendable, Equatable, Codable {
    /// Connections open now.
    package var open = 0
    /// The most that were open at once.
    package var mostOpen = 0
    /// Connections accepted in all.
    package var accepted = 0
    /// Connections closed to make room for a newer one at the limit (``ConnectionLimits/maxConnections``).
    package var evicted = 0
    /// Connections closed as soon as they were accepted: at the limit, every other one was owed an answer.
    package var refused = 0
    /// Connections closed because a head did not arrive in time (``ConnectionLimits/headerTimeout``).
    package var headerTimeouts = 0
    /// Connections closed because a body did not arrive in time (``ConnectionLimits/bodyTimeout``).
    package var bodyTimeouts = 0
    /// Connections closed after waiting too long for their next request (``ConnectionLimits/idleTimeout``).
    package var idleTimeouts = 0
    /// Connections closed because their client did not read their answers (``ConnectionLimits/writeTimeout``).
    package var writeTimeouts = 0
    /// Connections answered `503` and closed because their request's body would have taken the
    /// bytes held in unfinished bodies past ``ConnectionLimits/bodyBudget``.
    package var shedForBodyBudget = 0
    /// Bytes of request bodies held now: arrived, their answers not yet written.
    package var bodyBytesHeld = 0
    /// The most body bytes held at once.
    package var mostBodyBytesHeld = 0

    /// Counts a connection closed for `expiry`.
    mutating func count(_ expiry: ConnectionState.Expiry) {
        switch expiry {
        case .header: headerTimeouts += 1
        case .body: bodyTimeouts += 1
        case .idle: idleTimeouts += 1
        case .write: writeTimeouts += 1
        }
    }
}
