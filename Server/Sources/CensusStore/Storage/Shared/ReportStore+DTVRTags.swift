import MeterWire
import NIOConcurrencyHelpers
import SQLKit

extension ReportStore {
    /// The sessions of the report's app and window that sent DTVR tag pings, per app, channel,
    /// CID and session, with their tag credit and the SDK's claim (decisions.md T6).
    ///
    /// The tags are read back from the stored queries in key order and walked one session at a
    /// time, so the walk holds one session's tags (whether a driver buffers the rows it hands
    /// over is the driver's); sessions that sent none are credited by their duration pings, as
    /// the report's sums already do.
    /// Grouped by ``TagGroup``, as ``SessionCredit`` groups one session's tags.
    func dtvrTaggedSessions(_ query: ReportQuery) async throws -> [DTVRTaggedSession] {
        let group = TagGroup.columns.map(\.name)
        return try await database.withSQL { db in
            var sessions = try await Self.tagSessions(db, query, keepingTags: false)
            guard !sessions.isEmpty else { return [] }

            // The SDK's claim in those sessions: their DTVR pings other than tags.
            var claims = db.select()
                .columns(group)
                .column(SQLRaw("CAST(SUM(\(CreditRule.secondsColumn)) AS BIGINT)"), as: "seconds")
                .from("census_pings")
                .where(SQLRaw(CreditRule.isClaimSQL))
            claims = claims.filtered(by: query)
            for column in group { claims = claims.groupBy(column) }
            var index: [TagGroup: Int] = [:]
            for (position, session) in sessions.enumerated() { index[session.group] = position }
            for row in try await claims.all() {
                let key = try TagGroup(reading: row.creditText)
                if let position = index[key] { sessions[position].sdkSeconds = try row.decode(column: "seconds", as: Int64.self) }
            }
            return sessions
        }
    }

    /// The sessions of the report's app and window that sent DTVR tag pings, those of `narrowing`'s
    /// CIDs and channels, each with its tags and device (``DTVRTaggedSession/sent``) and its tag
    /// credit, not the SDK's claim: what an audience curves by (census-decisions.md S54).
    func dtvrTagsBySession(_ query: ReportQuery,
                           narrowing: @escaping @Sendable (SQLSelectBuilder) -> SQLSelectBuilder) async throws -> [DTVRTaggedSession] {
        try await database.withSQL { db in try await Self.tagSessions(db, query, keepingTags: true, narrowing: narrowing) }
    }

    /// The tag pings of `query` (and of `narrowing`) walked a session at a time.
    private static func tagSessions(_ db: CensusSQL, _ query: ReportQuery, keepingTags: Bool,
                                    narrowing: (SQLSelectBuilder) -> SQLSelectBuilder = { $0 }) async throws -> [DTVRTaggedSession] {
        let walk = NIOLockedValueBox(TagWalk(keepsTags: keepingTags))
        try await narrowing(tagPings(db, query)).run { row in walk.withLockedValue { $0.take(row) } }
        return try walk.withLockedValue { try $0.finish() }
    }

    /// The report's tag pings in ``TagGroup`` order, found through the index of tag pings
    /// (`census_pings_tags`, census-decisions.md S55): a day of a DCR app holds none, and
    /// finding that must not read the day's pings.
    static func tagPings(_ db: CensusSQL, _ query: ReportQuery) -> SQLSelectBuilder {
        let group = TagGroup.columns.map(\.name)
        var select = db.select()
            .columns(group)
            .column("ping_id").column("created_at").column("received_at").column("raw_query").column("device_id")
            .from("census_pings")
            .where(CreditColumn.kind.name, .equal, CreditRule.taggedKind.rawValue)
            .where(SQLRaw(CreditRule.isTagSQL))
            .filtered(by: query)
        for column in group { select = select.orderBy(column) }
        return select
    }

    /// The tag totals of the report's sessions, per line of the DTVR report (app, channel and CID).
    func dtvrTagTotalsByChannel(_ query: ReportQuery) async throws -> [ChannelLine: DTVRTagTotals] {
        try await dtvrTaggedSessions(query).reduce(into: [:]) { $0[$1.group.channelLine, default: .init()].add($1) }
    }

    /// The tag totals of the report's sessions, per line of the credit report (app and CID, every channel).
    func dtvrTagTotals(_ query: ReportQuery) async throws -> [CreditLine: DTVRTagTotals] {
        try await dtvrTaggedSessions(query).reduce(into: [:]) { $0[$1.group.line, default: .init()].add($1) }
    }
}

/// The tag pings of a report, read in key order and credited a session at a time.
private struct TagWalk {
    /// Whether each session keeps its tags and device.
    let keepsTags: Bool
    var sessions: [DTVRTaggedSession] = []
    var current: DTVRTaggedSession?
    var tags: [StoredTag] = []
    /// The session's tag pings' creation times (`c61`, seconds) and receipts (milliseconds), for the session rule.
    var created: ClosedRange<Int64>?
    var received: ClosedRange<Int64>?
    var failure: (any Error)?

    mutating func take(_ row: any SQLRow) {
        guard failure == nil else { return }
        do {
            let key = DTVRTaggedSession(group: try TagGroup(reading: row.creditText))
            if !key.isSameSession(as: current) {
                close()
                current = key
                if keepsTags { current?.sent.device = try row.decode(column: "device_id", as: String.self) }
            }
            let createdAt = try row.decode(column: "created_at", as: Int64.self)
            let receivedAt = try row.decode(column: "received_at", as: Int64.self)
            created = Self.widen(created, createdAt)
            received = Self.widen(received, receivedAt)
            tags.append(StoredTag.read(
                rawQuery: try row.decode(column: "raw_query", as: String.self), createdAt: createdAt, receivedAt: receivedAt,
                key: try row.decode(column: "ping_id", as: String.self)))
        } catch {
            failure = error
        }
    }

    private mutating func close() {
        guard var session = current else { return }
        session.tagSeconds = TagCredit.seconds(of: tags)
        if keepsTags { session.sent.tags = tags }
        session.excess = SessionPlausibility.excess(
            credit: session.tagSeconds, createdSpan: Self.span(created), receivedSpan: Self.span(received) / 1000)
        sessions.append(session)
        tags.removeAll(keepingCapacity: true)
        current = nil
        created = nil
        received = nil
    }

    private static func widen(_ range: ClosedRange<Int64>?, _ value: Int64) -> ClosedRange<Int64> {
        guard let range else { return value...value }
        return min(range.lowerBound, value)...max(range.upperBound, value)
    }

    /// The range's length, held at `Int64.max` (a stored `c61` is within 1970…2100, a receipt is the census's).
    private static func span(_ range: ClosedRange<Int64>?) -> Int64 {
        guard let range else { return 0 }
        let (length, overflow) = range.upperBound.subtractingReportingOverflow(range.lowerBound)
        return overflow ? .max : length
    }

    mutating func finish() throws -> [DTVRTaggedSession] {
        if let failure { throw failure }
        close()
        return sessions
    }
}
