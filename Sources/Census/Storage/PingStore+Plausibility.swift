import SQLKit

extension PingStore {
    /// Per app: the seconds credited, over bound and flagged (``PlausibilityRow``), for the
    /// report's app and window.
    public func plausibility(_ query: ReportQuery) async throws -> [PlausibilityRow] {
        try await database.withSQL { db in
            let condition = Self.condition(of: query)
            let flagged = try await db.raw("""
                SELECT appid, CAST(SUM(excess) AS BIGINT) AS flagged, COUNT(*) AS sessions
                FROM (\(SessionPlausibility.sessionsSQL(where: condition))) AS flagged GROUP BY appid
                """).all().map { row in
                (try row.decode(column: "appid", as: String.self),
                 (try row.decode(column: "flagged", as: Int64.self), try row.decode(column: "sessions", as: Int64.self)))
            }
            let flaggedByApp = Dictionary(flagged, uniquingKeysWith: { first, _ in first })
            let totals = try await db.raw("""
                SELECT appid, CAST(SUM(credited_seconds) AS BIGINT) AS credited,
                       CAST(SUM(over_bound_seconds) AS BIGINT) AS over_bound
                FROM census_pings WHERE \(condition) GROUP BY appid ORDER BY appid
                """).all()
            return try totals.map { row in
                let appid = try row.decode(column: "appid", as: String.self)
                let flags = flaggedByApp[appid] ?? (0, 0)
                return PlausibilityRow(
                    appid: appid, creditedSeconds: try row.decode(column: "credited", as: Int64.self),
                    overBoundSeconds: try row.decode(column: "over_bound", as: Int64.self),
                    flaggedSeconds: flags.0, flaggedSessions: flags.1)
            }
        }
    }

    /// The report's app and window on the creation time, as a condition on `census_pings`.
    static func condition(of query: ReportQuery) -> SQLQueryString {
        var condition: SQLQueryString = "1 = 1"
        if let appid = query.appid { condition = "\(condition) AND appid = \(bind: appid)" }
        if let from = query.from { condition = "\(condition) AND created_at >= \(bind: from)" }
        if let to = query.to { condition = "\(condition) AND created_at < \(bind: to)" }
        return condition
    }

    /// Sessions the session rule flags, to leave out of a report (``ReportQuery/excludeFlagged``).
    static func notFlagged(_ query: ReportQuery) -> SQLQueryString {
        var unfiltered = query
        unfiltered.excludeFlagged = false
        return """
            NOT EXISTS (SELECT 1 FROM (\(SessionPlausibility.sessionsSQL(where: condition(of: unfiltered)))) AS flagged
                        WHERE flagged.appid = census_pings.appid AND flagged.session_id = census_pings.session_id)
            """
    }
}
