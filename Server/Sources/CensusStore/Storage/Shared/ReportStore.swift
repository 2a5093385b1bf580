import MeterWire
import SQLKit

/// The credit and DTVR reports (docs/census.md §5), and the plausibility of what they credit. A
/// ``PingStore``'s ``PingStore/reports``.
package struct ReportStore: Sendable {
    /// The database.
    let database: any CensusDatabase

    /// The viewability pings, whose flagged sessions the plausibility report counts.
    var viewability: ViewabilityStore { ViewabilityStore(database: database) }

    /// The credit report: per app × asset × kind. DTVR is credited from the tags of the sessions
    /// that sent tag pings, and from the SDK's duration pings where a session sent none
    /// (decisions.md T6).
    package func report(_ query: ReportQuery) async throws -> [CreditRow] {
        let rows = try await sumReport(query)
        guard rows.contains(where: { $0.kind == .dtvr }) else { return rows }
        let totals = try await dtvrTagTotals(query)
        return rows.map { row in
            guard row.kind == .dtvr, let tags = totals[row.line] else { return row }
            var row = row
            row.creditedSeconds = CreditRule.creditedSeconds(row.creditedSeconds, replacing: tags, excludingFlagged: query.excludeFlagged)
            row.tagCheck = DTVRTagCheck(tags)
            return row
        }
    }

    /// The report's sums of `c27` per app × asset × kind, as the pings claimed them: grouped and
    /// summed as ``CreditRule`` says and keyed by ``CreditLine``, as ``SessionCredit`` is for one session.
    private func sumReport(_ query: ReportQuery) async throws -> [CreditRow] {
        try await database.withSQL { db in
            var select = db.select()
                .columns(CreditLine.columns.map(\.name))
                .column(CreditRule.viewsSQL, as: "views")
                .column(SQLRaw("CAST(SUM(\(CreditRule.secondsColumn)) AS BIGINT)"), as: "seconds")
                .column(SQLRaw("CAST(SUM(over_bound_seconds) AS BIGINT)"), as: "over_bound")
                .column(SQLRaw("CAST(SUM(CASE WHEN ott_type <> '' THEN credited_seconds ELSE 0 END) AS BIGINT)"), as: "ott_seconds")
                .column(SQLRaw("COUNT(DISTINCT NULLIF(device_id, ''))"), as: "devices")
                .column(SQLRaw("COUNT(DISTINCT NULLIF(session_id, ''))"), as: "sessions")
                .column(SQLRaw("AVG(CAST(opted_out AS DOUBLE PRECISION))"), as: "opted_out_share")
                .from("census_pings")
            select = select.filtered(by: query)
            for column in CreditLine.columns { select = select.groupBy(column.name) }
            for column in CreditLine.columns { select = select.orderBy(column.name) }
            let rows = try await select.all()
            return try rows.map { row in
                let line = try CreditLine(reading: row.creditText)
                return CreditRow(
                    appid: line.appid,
                    assetid: line.assetid,
                    kind: line.kind,
                    views: try row.decode(column: "views", as: Int64.self),
                    creditedSeconds: try row.decode(column: "seconds", as: Int64.self),
                    overBoundSeconds: try row.decode(column: "over_bound", as: Int64.self),
                    ottSeconds: try row.decode(column: "ott_seconds", as: Int64.self),
                    devices: try row.decode(column: "devices", as: Int64.self),
                    sessions: try row.decode(column: "sessions", as: Int64.self),
                    optedOutShare: try row.decode(column: "opted_out_share", as: Double.self))
            }
        }
    }

    /// The DTVR report: per app × channel × CID (docs/census.md §5), credited as ``report(_:)`` credits DTVR.
    package func dtvrReport(_ query: ReportQuery) async throws -> [DTVRRow] {
        let rows = try await dtvrSumReport(query)
        guard !rows.isEmpty else { return rows }
        let totals = try await dtvrTagTotalsByChannel(query)
        return rows.map { row in
            guard let tags = totals[row.line] else { return row }
            var row = row
            row.creditedSeconds = CreditRule.creditedSeconds(row.creditedSeconds, replacing: tags, excludingFlagged: query.excludeFlagged)
            row.tagCheck = DTVRTagCheck(tags)
            return row
        }
    }

    /// The DTVR report's sums of `c27`, as the pings claimed them.
    private func dtvrSumReport(_ query: ReportQuery) async throws -> [DTVRRow] {
        try await database.withSQL { db in
            var select = db.select()
                .columns(ChannelLine.columns.map(\.name))
                .column(CreditRule.viewsSQL, as: "views")
                .column(SQLRaw("CAST(SUM(\(CreditRule.secondsColumn)) AS BIGINT)"), as: "seconds")
                .column(SQLRaw("COUNT(DISTINCT NULLIF(device_id, ''))"), as: "devices")
                .column(SQLRaw("COUNT(DISTINCT NULLIF(session_id, ''))"), as: "sessions")
                .from("census_pings")
                .where(CreditColumn.kind.name, .equal, CreditRule.taggedKind.rawValue)
            select = select.filtered(by: query)
            for column in ChannelLine.columns { select = select.groupBy(column.name) }
            for column in ChannelLine.columns { select = select.orderBy(column.name) }
            let rows = try await select.all()
            return try rows.map { row in
                let line = try ChannelLine(reading: row.creditText)
                return DTVRRow(
                    appid: line.appid,
                    channel: line.channel,
                    cid: line.cid,
                    views: try row.decode(column: "views", as: Int64.self),
                    creditedSeconds: try row.decode(column: "seconds", as: Int64.self),
                    devices: try row.decode(column: "devices", as: Int64.self),
                    sessions: try row.decode(column: "sessions", as: Int64.self))
            }
        }
    }
}

extension SQLSelectBuilder {
    /// The report's app and window on the creation time (`created_at`).
    func filtered(by query: ReportQuery) -> SQLSelectBuilder {
        var select = self
        if let appid = query.appid { select = select.where("appid", .equal, appid) }
        if let from = query.from { select = select.where("created_at", .greaterThanOrEqual, from) }
        if let to = query.to { select = select.where("created_at", .lessThan, to) }
        if query.excludeFlagged { select = select.where(ReportStore.notFlagged(query)) }
        return select
    }
}
