import SQLKit

/// The session rule (``SessionPlausibility``) over viewability pings (census-decisions.md S41):
/// per app and session, each of the viewable and the audible seconds may add up to the shorter of
/// the spans of the session's viewability pings' creation times and of their receipt times, plus
/// its largest ping of that kind and ``SessionPlausibility/tolerance``. Beyond that they are
/// flagged, still counted unless the report excludes flagged sessions, as a duration ping's
/// seconds are.
package enum ViewabilityPlausibility {
    /// The seconds the rule judges, each on its own.
    enum Kind: String, CaseIterable {
        case viewable, audible

        /// The column of `census_viewability` holding a ping's seconds of this kind (within
        /// their bound, ``IncomingViewability/bound(interval:)``).
        var column: String { rawValue + "_seconds" }
        /// The column of ``sessionsSQL(where:)`` holding a session's excess of this kind.
        var excess: String { rawValue + "_excess" }
    }

    /// The sessions the rule flags among the viewability pings meeting `condition`: `appid`,
    /// `session_id` and one excess column per ``Kind`` (0 or less where that kind is within the
    /// rule). Pings without a session id belong to no session.
    static func sessionsSQL(where condition: SQLQueryString) -> SQLQueryString {
        let tolerance = Int(SessionPlausibility.tolerance)
        let sums = Kind.allCases.map { "SUM(\($0.column)) AS \($0.rawValue), MAX(\($0.column)) AS largest_\($0.rawValue)" }
            .joined(separator: ", ")
        let excesses = Kind.allCases.map { "\($0.rawValue) - span - largest_\($0.rawValue) - \(tolerance) AS \($0.excess)" }
            .joined(separator: ", ")
        let flagged = Kind.allCases.map { "\($0.excess) > 0" }.joined(separator: " OR ")
        return """
            SELECT appid, session_id, \(unsafeRaw: Kind.allCases.map(\.excess).joined(separator: ", ")) FROM (
              SELECT appid, session_id, \(unsafeRaw: excesses) FROM (
                SELECT appid, session_id, \(unsafeRaw: sums),
                       CASE WHEN MAX(created_at) - MIN(created_at) < (MAX(received_at) - MIN(received_at)) / 1000
                            THEN MAX(created_at) - MIN(created_at) ELSE (MAX(received_at) - MIN(received_at)) / 1000 END AS span
                FROM census_viewability WHERE session_id <> '' AND \(condition)
                GROUP BY appid, session_id
              ) AS sessions
            ) AS judged WHERE \(unsafeRaw: flagged)
            """
    }

    /// The excess of one kind for a session's pings, as ``sessionsSQL(where:)`` works it out in
    /// SQL: the rule as one function, for the table tests. Saturating: every operand came from a
    /// sender.
    static func excess(seconds: [Int64], createdSpan: Int64, receivedSpan: Int64) -> Int64 {
        SessionPlausibility.excess(credit: seconds.reduce(0) { $0.saturatingAdd($1) }, createdSpan: createdSpan,
                                   receivedSpan: receivedSpan, largest: seconds.max() ?? 0)
    }
}
