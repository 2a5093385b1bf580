/// What the census's connection limits did since it started (`GET /api/v1/stats`, `connections`).
public struct ConnectionCounters: Sendable, Equatable, Codable {
    /// Connections open now.
    public var open = 0
    /// The most that were open at once.
    public var mostOpen = 0
    /// Connections accepted in all.
    public var accepted = 0
    /// Connections closed to make room for a newer one at the limit (``ConnectionLimits/maxConnections``).
    public var evicted = 0
    /// Connections closed as soon as they were accepted: at the limit, every other one was owed an answer.
    public var refused = 0
    /// Connections closed because a head did not arrive in time (``ConnectionLimits/headerTimeout``).
    public var headerTimeouts = 0
    /// Connections closed because a body did not arrive in time (``ConnectionLimits/bodyTimeout``).
    public var bodyTimeouts = 0
    /// Connections closed after waiting too long for their next request (``ConnectionLimits/idleTimeout``).
    public var idleTimeouts = 0

    /// Counts a connection closed for `expiry`.
    mutating func count(_ expiry: ConnectionState.Expiry) {
        switch expiry {
        case .header: headerTimeouts += 1
        case .body: bodyTimeouts += 1
        case .idle: idleTimeouts += 1
        }
    }
}
