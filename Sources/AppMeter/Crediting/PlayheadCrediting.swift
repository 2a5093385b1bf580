/// The crediting rule for one asset: a playhead report that advances exactly one second over the
/// previous report of the same asset credits one second. A repeat, a step back or a jump forward
/// (a seek) credits nothing and becomes the new reference.
///
/// The same rule serves VOD (seconds from the start) and live (Unix seconds).
public struct PlayheadCrediting: Sendable, Equatable {
    /// The previous report, or nil before the first.
    public private(set) var reference: Int64?

    /// Creates a rule with no reference yet.
    public init() {}

    /// Records `position` and returns whether it credits one second.
    public mutating func report(_ position: Int64) -> Bool {
        defer { reference = position }
        guard let previous = reference else { return false }
        return previous < Int64.max && position == previous + 1
    }
}
