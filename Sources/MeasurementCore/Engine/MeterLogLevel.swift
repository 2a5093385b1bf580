/// How much an instance logs, from `nol_devDebug` or the `debug` property: the core filters its
/// log effects by it, and the platform maps it to its logger (swift-log's levels, the console).
public enum MeterLogLevel: Int, Sendable, Comparable, CaseIterable {
    case trace, debug, info, notice, warning, error, critical

    /// Less severe: `trace` is the lowest level, `critical` the highest.
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}
