/// A crediting rule: how observations of one asset become credited seconds. Each product part of
/// the core keeps one rule value per asset, so the rule is data that tests can drive directly.
package protocol CreditingRule: Sendable, Equatable {
    /// What the rule observes (a playhead position, a tag, a foreground second…).
    associatedtype Observation
    /// Records `observation` and returns the seconds it credits.
    mutating func credit(_ observation: Observation) -> Int64
}

/// The DCR rule for one asset: a playhead report that advances exactly one second over the
/// previous report of the same asset credits one second. A repeat, a step back or a jump forward
/// (a seek) credits nothing and becomes the new reference.
///
/// The same rule serves VOD (seconds from the start) and live (Unix seconds).
public struct PlayheadCrediting: CreditingRule {
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

    /// Records `position` and returns the seconds it credits (0 or 1).
    package mutating func credit(_ position: Int64) -> Int64 {
        report(position) ? 1 : 0
    }
}
