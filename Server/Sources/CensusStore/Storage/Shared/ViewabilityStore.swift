import SQLKit

/// The SDK's viewability pings (`census_viewability`, docs/protocol.md §2g): stored once each,
/// reported per session and asset, and flagged by the session rule (``ViewabilityPlausibility``).
/// A ``PingStore``'s ``PingStore/viewability``.
package struct ViewabilityStore: Sendable {
    /// The database.
    let database: any CensusDatabase

    /// Stores a viewability ping once (by ping id); true when it was new.
    package func insert(_ ping: IncomingViewability, receivedAt: Int64) async throws -> Bool {
        try await database.withCommittedSQL { db in
            let rows = try await db.insert(into: "census_viewability")
                .columns("ping_id", "received_at", "appid", "session_id", "asset_id", "created_at",
                         "measured_seconds", "viewable_seconds", "audible_seconds", "over_bound_seconds", "body")
                .values(ping.key, receivedAt, ping.appID, ping.sessionID, ping.assetID, ping.createdAt,
                        ping.measuredSeconds, ping.viewableSeconds, ping.audibleSeconds, ping.overBoundSeconds, ping.body)
                .ignoringConflicts(with: "ping_id").returning("ping_id").all()
            return !rows.isEmpty
        }
    }

    /// The viewability report: per app × session × asset, each row's session flagged or not by
    /// the session rule (``ViewabilityPlausibility``); with ``ReportQuery/excludeFlagged`` the
    /// rows of flagged sessions are left out, as the credit report leaves out their pings.
    package func viewabilityReport(_ query: ReportQuery) async throws -> [ViewabilityRow] {
        var unfiltered = query
        unfiltered.excludeFlagged = false
        let flagged = Set(try await flaggedViewabilitySessions(unfiltered).map { SessionSpans.SessionKey(session: $0.session, appid: $0.appid) })
        return try await database.withSQL { [unfiltered] db in
            var select = db.select()
                .column("appid").column("session_id").column("asset_id")
                .column(SQLRaw("COUNT(*)"), as: "pings")
                .column(SQLRaw("CAST(SUM(measured_seconds) AS BIGINT)"), as: "measured")
                .column(SQLRaw("CAST(SUM(viewable_seconds) AS BIGINT)"), as: "viewable")
                .column(SQLRaw("CAST(SUM(audible_seconds) AS BIGINT)"), as: "audible")
                .column(SQLRaw("CAST(SUM(over_bound_seconds) AS BIGINT)"), as: "over_bound")
                .from("census_viewability")
            select = select.filtered(by: unfiltered)
            return try await select.groupBy("appid").groupBy("session_id").groupBy("asset_id")
                .orderBy("appid").orderBy("session_id").orderBy("asset_id").all()
                .map { row in
                    let appid = try row.decode(column: "appid", as: String.self)
                    let session = try row.decode(column: "session_id", as: String.self)
                    return ViewabilityRow(
                        appid: appid, session: session,
                        assetid: try row.decode(column: "asset_id", as: String.self),
                        pings: try row.decode(column: "pings", as: Int64.self),
                        measuredSeconds: try row.decode(column: "measured", as: Int64.self),
                        viewableSeconds: try row.decode(column: "viewable", as: Int64.self),
                        audibleSeconds: try row.decode(column: "audible", as: Int64.self),
                        overBoundSeconds: try row.decode(column: "over_bound", as: Int64.self),
                        flagged: flagged.contains(SessionSpans.SessionKey(session: session, appid: appid)))
                }
                .filter { !(query.excludeFlagged && $0.flagged) }
        }
    }

    /// The sessions whose viewability pings in the report's app and window the session rule
    /// flags, with their excess of each kind (0 where that kind is within the rule).
    func flaggedViewabilitySessions(_ query: ReportQuery) async throws -> [FlaggedViewability] {
        let kinds = ViewabilityPlausibility.Kind.allCases
        return try await database.withSQL { db in
            try await db.raw("""
                SELECT appid, session_id, \(unsafeRaw: kinds.map { "CAST(\($0.excess) AS BIGINT) AS \($0.excess)" }.joined(separator: ", "))
                FROM (\(ViewabilityPlausibility.sessionsSQL(where: ReportStore.condition(of: query)))) AS flagged
                """).all().map { row in
                var excess: [ViewabilityPlausibility.Kind: Int64] = [:]
                for kind in kinds { excess[kind] = max(0, try row.decode(column: kind.excess, as: Int64.self)) }
                return FlaggedViewability(appid: try row.decode(column: "appid", as: String.self),
                                          session: try row.decode(column: "session_id", as: String.self), excess: excess)
            }
        }
    }
}

/// A session the viewability rule flags (``ViewabilityPlausibility``).
struct FlaggedViewability: Sendable {
    var appid: String
    var session: String
    /// Seconds of each kind beyond the rule; 0 where that kind is within it.
    var excess: [ViewabilityPlausibility.Kind: Int64]
}
