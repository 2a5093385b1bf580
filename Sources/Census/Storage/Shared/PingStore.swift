import Foundation
import Logging
import MeterWire
import NIOConcurrencyHelpers
import SQLKit

extension DatabaseLocation {
    /// Opens the database, migrates it, runs `body` with a store over it, and closes it.
    public func withStore<Result>(
        logger: Logger = Logger(label: "Census"), _ body: (PingStore) async throws -> Result
    ) async throws -> Result {
        let database = try await open(logger: logger)
        let store = PingStore(database: database)
        do {
            try await store.migrate()
            let result = try await body(store)
            await database.close()
            return result
        } catch {
            await database.close()
            throw error
        }
    }
}

/// A stored ping, as returned by the session API.
public struct StoredPing: Sendable, Equatable, Codable {
    /// The ping id as the SDK sent it (or the census derived it).
    public var pingID: String
    /// `c13`'s appid.
    public var appid: String
    /// `view`, `timer`, or the DTVR tag ping's type.
    public var pingType: String
    /// Content, ad, static or audio.
    public var kind: CreditKind
    /// `ai`.
    public var assetid: String
    /// The seconds credited (over-bound seconds left out).
    public var creditedSeconds: Int64
    /// `c61`, Unix seconds.
    public var createdAt: Int64
    /// The query as received.
    public var rawQuery: String

    /// A stored ping from its columns (tools and tests build them; the store reads them).
    public init(pingID: String, appid: String, pingType: String, kind: CreditKind, assetid: String,
                creditedSeconds: Int64, createdAt: Int64, rawQuery: String) {
        self.pingID = pingID
        self.appid = appid
        self.pingType = pingType
        self.kind = kind
        self.assetid = assetid
        self.creditedSeconds = creditedSeconds
        self.createdAt = createdAt
        self.rawQuery = rawQuery
    }
}

/// The per-app settings returned by the config handshake.
public struct AppSettings: Sendable, Equatable, Codable {
    /// False turns the SDK off for this app (the server-side kill switch).
    public var enabled: Bool
    /// The SDK sends a duration ping at least every this many credited seconds.
    public var durationPingInterval: Int64

    /// Creates settings.
    public init(enabled: Bool, durationPingInterval: Int64) {
        self.enabled = enabled
        self.durationPingInterval = durationPingInterval
    }

    /// What an app without an entry gets.
    public static let standard = AppSettings(enabled: true, durationPingInterval: ConfigAnswer.defaultInterval)
}

/// Every query the census runs, written once with SQLKit for both backends.
public struct PingStore: Sendable {
    /// The database.
    package let database: any CensusDatabase
    /// The session spans known to be stored, shared by the copies of this store.
    let spanCache = SessionSpanCache()

    /// Wraps `database`; call ``migrate()`` before use.
    package init(database: any CensusDatabase) {
        self.database = database
    }

    /// Creates or updates the schema.
    public func migrate() async throws {
        try await database.withSQL { try await Schema.migrate($0) }
    }

    /// Inserts `pings` in one statement (one commit) and returns the keys (``IncomingPing/key``)
    /// that were new; a ping key already stored is left alone, so a re-delivered ping is credited once. The spans of
    /// their sessions are written first when they need to be (``SessionSpans``).
    public func insert(_ pings: [IncomingPing], receivedAt: Int64) async throws -> Set<String> {
        try await insert(pings, receivedAt: receivedAt, with: database.writer)
    }

    /// ``insert(_:receivedAt:)`` with `writer`: a group commit's session's (``PingWriter``).
    func insert(_ pings: [IncomingPing], receivedAt: Int64, with writer: any CensusBatchWriter) async throws -> Set<String> {
        guard !pings.isEmpty else { return [] }
        let needs = spanCache.uncoveredNeeds(of: pings)
        let stored = try await database.typingFailures {
            try await writer.insertPings(pings, writingSpans: needs, receivedAt: receivedAt)
        }
        spanCache.remember(needs)
        return stored
    }

    /// Records a refused request with its reason.
    public func recordReject(reason: String, rawRequest: String, receivedAt: Int64) async throws {
        try await recordRejects([(reason, rawRequest)], receivedAt: receivedAt)
    }

    /// A process-unique prefix and a counter: as unique as a UUID per row, without asking the
    /// system for randomness for every refused request of a flood.
    private static let rejectIDPrefix = UUID().uuidString + "-"
    private static let rejectCounter = NIOLockedValueBox<UInt64>(0)

    static func newRejectID() -> String {
        rejectIDPrefix + String(rejectCounter.withLockedValue { $0 += 1; return $0 })
    }

    /// A refused request about to be stored: its id, the reason, the request cut to
    /// ``PingValidator/maxURLBytes``, the app it names (``StorageBudget/appid(ofRequest:)``) and
    /// the bytes it takes against that app's quota.
    public struct NewReject: Sendable {
        public var id: String
        public var reason: String
        public var rawRequest: String
        public var appid: String
        public var bytes: Int64
    }

    /// `text` as every backend can store it: a NUL (which a refused batch line may carry raw, and
    /// which PostgreSQL's text refuses, failing every reject committed with it) becomes U+FFFD.
    static func storable(_ text: String) -> String {
        text.utf8.contains(0) ? text.replacingOccurrences(of: "\u{0}", with: "\u{FFFD}") : text
    }

    /// Records refused requests with their reasons, in one statement.
    public func recordRejects(_ rejects: [(reason: String, rawRequest: String)], receivedAt: Int64) async throws {
        try await recordRejects(rejects, receivedAt: receivedAt, with: database.writer)
    }

    /// ``recordRejects(_:receivedAt:)`` with `writer`: a group commit's session's (``PingWriter``).
    func recordRejects(_ rejects: [(reason: String, rawRequest: String)], receivedAt: Int64,
                       with writer: any CensusBatchWriter) async throws {
        guard !rejects.isEmpty else { return }
        let rows = rejects.map { reject in
            let rawRequest = Self.storable(String(reject.rawRequest.prefix(PingValidator.maxURLBytes)))
            let reason = Self.storable(String(reject.reason.prefix(StorageBudget.maxReasonCharacters)))
            return NewReject(id: Self.newRejectID(), reason: reason, rawRequest: rawRequest,
                             appid: StorageBudget.appid(ofRequest: rawRequest),
                             bytes: StorageBudget.bytes(ofReject: reason, rawRequest))
        }
        try await database.typingFailures { try await writer.insertRejects(rows, receivedAt: receivedAt) }
    }

    /// The credit report: per app × asset × kind. DTVR is credited from the tags of the sessions
    /// that sent tag pings, and from the SDK's duration pings where a session sent none
    /// (decisions.md T6).
    public func report(_ query: ReportQuery) async throws -> [CreditRow] {
        let rows = try await sumReport(query)
        guard rows.contains(where: { $0.kind == .dtvr }) else { return rows }
        let totals = try await dtvrTagTotals(query)
        return rows.map { row in
            guard row.kind == .dtvr, let tags = totals[[row.appid, row.assetid]] else { return row }
            var row = row
            row.creditedSeconds = Self.creditedSeconds(row.creditedSeconds, replacing: tags, excludingFlagged: query.excludeFlagged)
            row.tagCheck = DTVRTagCheck(tagSeconds: tags.tagSeconds, sdkSeconds: tags.sdkSeconds,
                                        disagreeingSessions: tags.disagreeingSessions)
            return row
        }
    }

    /// The sum of the SDK's seconds, with the claim of the sessions that sent tags replaced by
    /// what their tags credit; without the tag seconds of sessions the session rule flags when the
    /// report leaves flagged sessions out (their pings the SQL rule flags are left out already).
    static func creditedSeconds(_ sdkSum: Int64, replacing tags: DTVRTagTotals, excludingFlagged: Bool) -> Int64 {
        let tagSeconds = excludingFlagged ? max(0, tags.tagSeconds.saturatingAdd(-tags.flaggedTagSeconds)) : tags.tagSeconds
        return max(0, sdkSum.saturatingAdd(-min(tags.sdkSeconds, sdkSum)).saturatingAdd(tagSeconds))
    }

    /// The report's sums of `c27` per app × asset × kind, as the pings claimed them.
    private func sumReport(_ query: ReportQuery) async throws -> [CreditRow] {
        try await database.withSQL { db in
            var select = db.select()
                .column("appid").column("asset_id").column("credit_kind")
                .column(SQLRaw("CAST(SUM(CASE WHEN ping_type = 'view' THEN 1 ELSE 0 END) AS BIGINT)"), as: "views")
                .column(SQLRaw("CAST(SUM(credited_seconds) AS BIGINT)"), as: "seconds")
                .column(SQLRaw("CAST(SUM(over_bound_seconds) AS BIGINT)"), as: "over_bound")
                .column(SQLRaw("CAST(SUM(CASE WHEN ott_type <> '' THEN credited_seconds ELSE 0 END) AS BIGINT)"), as: "ott_seconds")
                .column(SQLRaw("COUNT(DISTINCT NULLIF(device_id, ''))"), as: "devices")
                .column(SQLRaw("COUNT(DISTINCT NULLIF(session_id, ''))"), as: "sessions")
                .column(SQLRaw("AVG(CAST(opted_out AS DOUBLE PRECISION))"), as: "opted_out_share")
                .from("census_pings")
            select = select.filtered(by: query)
            let rows = try await select.groupBy("appid").groupBy("asset_id").groupBy("credit_kind")
                .orderBy("appid").orderBy("credit_kind").orderBy("asset_id").all()
            return try rows.map { row in
                CreditRow(
                    appid: try row.decode(column: "appid", as: String.self),
                    assetid: try row.decode(column: "asset_id", as: String.self),
                    kind: CreditKind(rawValue: try row.decode(column: "credit_kind", as: String.self)) ?? .content,
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
    public func dtvrReport(_ query: ReportQuery) async throws -> [DTVRRow] {
        let rows = try await dtvrSumReport(query)
        guard !rows.isEmpty else { return rows }
        let totals = try await dtvrTagTotalsByChannel(query)
        return rows.map { row in
            guard let tags = totals[[row.appid, row.channel, row.cid]] else { return row }
            var row = row
            row.creditedSeconds = Self.creditedSeconds(row.creditedSeconds, replacing: tags, excludingFlagged: query.excludeFlagged)
            row.tagCheck = DTVRTagCheck(tagSeconds: tags.tagSeconds, sdkSeconds: tags.sdkSeconds,
                                        disagreeingSessions: tags.disagreeingSessions)
            return row
        }
    }

    /// The DTVR report's sums of `c27`, as the pings claimed them.
    private func dtvrSumReport(_ query: ReportQuery) async throws -> [DTVRRow] {
        try await database.withSQL { db in
            var select = db.select()
                .column("appid").column("channel_name").column("asset_id")
                .column(SQLRaw("CAST(SUM(CASE WHEN ping_type = 'view' THEN 1 ELSE 0 END) AS BIGINT)"), as: "views")
                .column(SQLRaw("CAST(SUM(credited_seconds) AS BIGINT)"), as: "seconds")
                .column(SQLRaw("COUNT(DISTINCT NULLIF(device_id, ''))"), as: "devices")
                .column(SQLRaw("COUNT(DISTINCT NULLIF(session_id, ''))"), as: "sessions")
                .from("census_pings")
                .where("credit_kind", .equal, CreditKind.dtvr.rawValue)
            select = select.filtered(by: query)
            let rows = try await select.groupBy("appid").groupBy("channel_name").groupBy("asset_id")
                .orderBy("appid").orderBy("channel_name").orderBy("asset_id").all()
            return try rows.map { row in
                DTVRRow(
                    appid: try row.decode(column: "appid", as: String.self),
                    channel: try row.decode(column: "channel_name", as: String.self),
                    cid: try row.decode(column: "asset_id", as: String.self),
                    views: try row.decode(column: "views", as: Int64.self),
                    creditedSeconds: try row.decode(column: "seconds", as: Int64.self),
                    devices: try row.decode(column: "devices", as: Int64.self),
                    sessions: try row.decode(column: "sessions", as: Int64.self))
            }
        }
    }

    static func storedPing(_ row: any SQLRow) throws -> StoredPing {
        let appid = try row.decode(column: "appid", as: String.self)
        return StoredPing(
            pingID: PingKey.unscoped(try row.decode(column: "ping_id", as: String.self), appID: appid),
            appid: appid,
            pingType: try row.decode(column: "ping_type", as: String.self),
            kind: CreditKind(rawValue: try row.decode(column: "credit_kind", as: String.self)) ?? .content,
            assetid: try row.decode(column: "asset_id", as: String.self),
            creditedSeconds: try row.decode(column: "credited_seconds", as: Int64.self),
            createdAt: try row.decode(column: "created_at", as: Int64.self),
            rawQuery: try row.decode(column: "raw_query", as: String.self))
    }

    /// How many pings and rejects are stored.
    public func counts() async throws -> (pings: Int64, rejects: Int64) {
        try await database.withSQL { db in
            let pings = try await db.select().column(SQLRaw("COUNT(*)"), as: "n").from("census_pings").first()?
                .decode(column: "n", as: Int64.self) ?? 0
            let rejects = try await db.select().column(SQLRaw("COUNT(*)"), as: "n").from("census_rejects").first()?
                .decode(column: "n", as: Int64.self) ?? 0
            return (pings, rejects)
        }
    }

    /// The reasons of the stored rejects, newest last.
    public func rejectReasons() async throws -> [String] {
        try await database.withSQL { db in
            try await db.select().column("reason").from("census_rejects").orderBy("received_at").all()
                .map { try $0.decode(column: "reason", as: String.self) }
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
        if query.excludeFlagged { select = select.where(PingStore.notFlagged(query)) }
        return select
    }
}
