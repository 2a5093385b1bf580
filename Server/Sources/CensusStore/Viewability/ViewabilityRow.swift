/// One line of the viewability report: a viewing session's asset (docs/census.md §5).
package struct ViewabilityRow: Sendable, Equatable, Codable {
    /// The app.
    package var appid: String
    /// The viewing session.
    package var session: String
    /// The asset (`assetid`).
    package var assetid: String
    /// Viewability pings received.
    package var pings: Int64
    /// Seconds the player's intersection ratio was measured.
    package var measuredSeconds: Int64
    /// Seconds with at least half the player on screen.
    package var viewableSeconds: Int64
    /// Seconds with the volume above 0.
    package var audibleSeconds: Int64
    /// Measured seconds reports claimed over their bound (``IncomingViewability/bound(interval:)``): not counted.
    package var overBoundSeconds: Int64 = 0
    /// The session rule flags the session's viewability pings (``ViewabilityPlausibility``): their
    /// viewable or audible seconds outrun the time they span.
    package var flagged = false
}
