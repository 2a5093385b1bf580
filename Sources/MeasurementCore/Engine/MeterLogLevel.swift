/// How much an instance logs, from `nol_devDebug` or the `debug` property: the core filters its
/// log effects by it, and the platform maps it to its logger (swift-log's levels, the console).
package enum MeterLogLevel: Int, Sendable, Comparable, CaseIterable {
    case trace, debug, info, notice, warning, error, critical

    package static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}
