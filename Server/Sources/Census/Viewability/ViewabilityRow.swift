/// One line of the viewability report: a viewing session's asset (docs/census.md §5).
public struct ViewabilityRow: Sendable, Equatable, Codable {
    /// The app.
    public var appid: String
    /// The viewing session.
    public var session: String
    /// The asset (`assetid`).
    public var assetid: String
    /// Viewability pings received.
    public var pings: Int64
    /// Seconds the player's intersection ratio was measured.
    public var measuredSeconds: Int64
    /// Seconds with at least half the player on screen.
    public var viewableSeconds: Int64
    /// Seconds with the volume above 0.
    public var audibleSeconds: Int64
    /// Measured seconds reports claimed over their bound (``IncomingViewability/bound(interval:)``): not counted.
    public var overBoundSeconds: Int64 = 0
    /// The session rule flags the session's viewability pings (``ViewabilityPlausibility``): their
    /// viewable or audible seconds outrun the time they span.
    public var flagged = false
}
