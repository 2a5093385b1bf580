package import Foundation

/// A report's range and breakdown as a request or `meter report` gives them (`from`, `to`, `tz`,
/// `by`), read once by the same rules for both (census-decisions.md S52).
package struct ReportRange: Sendable {
    /// Pings created at or after this Unix second, or from the first.
    package var from: Int64?
    /// Pings created before this Unix second, or to the last.
    package var to: Int64?
    /// The zone dates, times without an offset and calendar days are read in (UTC by default).
    package var zone: TimeZone
    /// The breakdown's unit and periods, when `by` was given.
    package var breakdown: (unit: ReportTime.Unit, periods: [ReportTime.Period])?

    /// Reads the four settings; the failure says which is wrong and what it takes, each named as
    /// `named` writes it (`--from` on the command line). Each is absent when nil; given empty, it is
    /// wrong.
    package static func read(from: String?, to: String?, tz: String?, by: String?,
                             named: (String) -> String = { $0 }) -> Result<ReportRange, ReportRangeProblem> {
        var zone = TimeZone(identifier: "UTC") ?? TimeZone(secondsFromGMT: 0)!
        if let tz {
            guard let given = ReportTime.zone(tz) else {
                return .failure(ReportRangeProblem(reason: "\(named("tz")) must be UTC, a zone name (Europe/Rome) or an offset (+01:00)"))
            }
            zone = given
        }
        var range = ReportRange(from: nil, to: nil, zone: zone, breakdown: nil)
        for (name, text, isEnd) in [("from", from, false), ("to", to, true)] {
            guard let text else { continue }
            guard let instant = ReportTime.instant(text, in: zone, asEnd: isEnd) else {
                return .failure(ReportRangeProblem(
                    reason: "\(named(name)) must be Unix seconds, a date (2026-11-26) or a date and time (2026-11-26T20:00:00+01:00)"))
            }
            if isEnd { range.to = instant } else { range.from = instant }
        }
        guard let by else { return .success(range) }
        guard let unit = ReportTime.Unit(rawValue: by) else { return .failure(ReportRangeProblem(reason: "\(named("by")) must be day or hour")) }
        guard let from = range.from, let to = range.to else {
            return .failure(ReportRangeProblem(reason: "\(named("by"))=\(by) needs \(named("from")) and \(named("to"))"))
        }
        guard let periods = ReportTime.periods(unit, from: from, to: to, in: zone) else {
            return .failure(ReportRangeProblem(
                reason: "\(named("by"))=\(by) breaks a range of years 1970…9999 into at most \(ReportTime.maxPeriods) periods: narrow \(named("from")) and \(named("to"))"))
        }
        range.breakdown = (unit, periods)
        return .success(range)
    }

    /// `query` over this range.
    package func applied(to query: ReportQuery) -> ReportQuery {
        var query = query
        query.from = from
        query.to = to
        return query
    }
}

/// Why a report's range could not be read.
package struct ReportRangeProblem: Error, Sendable {
    package let reason: String

    package init(reason: String) {
        self.reason = reason
    }
}
