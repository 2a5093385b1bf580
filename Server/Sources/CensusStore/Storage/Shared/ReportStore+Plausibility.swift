import SQLKit

extension ReportStore {
    /// Per app: the seconds credited, over bound and flagged (``PlausibilityRow``), for the
    /// report's app and window.
    ///
    /// A session is flagged by its pings' seconds (``SessionPlausibility/sessionsSQL(where:)``) or
    /// by its DTVR tags' credit (``DTVRTaggedSession/excess``); one flagged both ways counts once,
    /// with the larger excess.
    package func plausibility(_ query: ReportQuery) async throws -> [PlausibilityRow] {
        var unfiltered = query
        unfiltered.excludeFlagged = false
        let tagged = try await dtvrTaggedSessions(unfiltered)
        let viewability = try await self.viewability.flaggedViewabilitySessions(unfiltered)
        let rows: [PlausibilityRow] = try await database.withSQL { db in
            let condition = Self.condition(of: query)
            var excess: [SessionSpans.SessionKey: Int64] = [:]
            for row in try await db.raw("""
                SELECT appid, session_id, CAST(excess AS BIGINT) AS excess
                FROM (\(SessionPlausibility.sessionsSQL(where: condition))) AS flagged
                """).all() {
                let key = SessionSpans.SessionKey(session: try row.decode(column: "session_id", as: String.self),
                                                  appid: try row.decode(column: "appid", as: String.self))
                excess[key] = max(excess[key] ?? 0, try row.decode(column: "excess", as: Int64.self))
            }
            for session in tagged where session.excess > 0 {
                let key = SessionSpans.SessionKey(session: session.session, appid: session.appid)
                excess[key] = max(excess[key] ?? 0, session.excess)
            }
            var flaggedByApp: [String: (Int64, Int64)] = [:]
            for (key, seconds) in excess {
                let totals = flaggedByApp[key.appid] ?? (0, 0)
                flaggedByApp[key.appid] = (totals.0.saturatingAdd(seconds), totals.1 + 1)
            }
            let totals = try await db.raw("""
                SELECT appid, CAST(SUM(credited_seconds) AS BIGINT) AS credited,
                       CAST(SUM(over_bound_seconds) AS BIGINT) AS over_bound
                FROM census_pings WHERE \(condition) GROUP BY appid ORDER BY appid
                """).all()
            // DTVR of the sessions that sent tags is credited by the tags, as in the credit report.
            var tagTotals: [String: DTVRTagTotals] = [:]
            for session in tagged { tagTotals[session.appid, default: .init()].add(session) }
            return try totals.map { row in
                let appid = try row.decode(column: "appid", as: String.self)
                let flags = flaggedByApp[appid] ?? (0, 0)
                let claimed = try row.decode(column: "credited", as: Int64.self)
                return PlausibilityRow(
                    appid: appid,
                    creditedSeconds: tagTotals[appid].map { CreditRule.creditedSeconds(claimed, replacing: $0, excludingFlagged: false) } ?? claimed,
                    overBoundSeconds: try row.decode(column: "over_bound", as: Int64.self),
                    flaggedSeconds: flags.0, flaggedSessions: flags.1)
            }
        }
        return Self.adding(viewability, to: rows)
    }

    /// `rows` with each app's viewability flags (``ViewabilityPlausibility``), and a row for an
    /// app that has only those, in app order.
    static func adding(_ flagged: [FlaggedViewability], to rows: [PlausibilityRow]) -> [PlausibilityRow] {
        var byApp = Dictionary(uniqueKeysWithValues: rows.map { ($0.appid, $0) })
        for session in flagged {
            var row = byApp[session.appid]
                ?? PlausibilityRow(appid: session.appid, creditedSeconds: 0, overBoundSeconds: 0, flaggedSeconds: 0, flaggedSessions: 0)
            row.flaggedViewableSeconds = row.flaggedViewableSeconds.saturatingAdd(session.excess[.viewable] ?? 0)
            row.flaggedAudibleSeconds = row.flaggedAudibleSeconds.saturatingAdd(session.excess[.audible] ?? 0)
            row.flaggedViewabilitySessions += 1
            byApp[session.appid] = row
        }
        return byApp.values.sorted { Array($0.appid.utf8).lexicographicallyPrecedes(Array($1.appid.utf8)) }
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
