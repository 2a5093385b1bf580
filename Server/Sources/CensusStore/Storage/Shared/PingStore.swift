import Foundation
import MeterWire
import NIOConcurrencyHelpers
import SQLKit

/// Every query the census runs, written once with SQLKit for both engines; a group commit's
/// batches are written each engine's own way (``CensusBatchWriter``). The store itself holds the
/// schema, the writes of pings and refused requests and what is kept of them; the other queries
/// are its stores', one concern each, reached from it: ``reports``, ``viewability``, ``traces``,
/// ``apps``, ``privacy``, ``sessions`` and ``amp``. Each is a small value made on use; what its
/// copies share (``spanCache``, ``ampReplays``) is held here.
package struct PingStore: Sendable {
    /// The database.
    package let database: any CensusDatabase
    /// The session spans known to be stored, shared by the copies of this store.
    let spanCache = SessionSpanCache()
    /// The AMP page views' last replays, carried forward (census-decisions.md AMP8), shared by
    /// the copies of this store.
    let ampReplays = AMPReplayCache()
    /// The census's clock: its server's and its own (``CensusClock``).
    package let clock: any CensusClock

    /// The apps' settings.
    package var apps: AppStore { AppStore(database: database, clock: clock) }
    /// One device's data, for the GDPR's access and erasure rights.
    package var privacy: PrivacyStore { PrivacyStore(database: database) }
    /// The viewing sessions' pings, and the sessions list's labels and AMP page views.
    package var sessions: SessionStore { SessionStore(database: database) }
    /// Google AMP's requests and their replay.
    package var amp: AMPStore { AMPStore(database: database, ampReplays: ampReplays, apps: apps) }
    /// The call traces, the pings they name and the signing key that certifies them.
    package var traces: TraceStore { TraceStore(database: database, clock: clock) }
    /// The viewability pings and their report.
    package var viewability: ViewabilityStore { ViewabilityStore(database: database) }
    /// The credit, DTVR and plausibility reports.
    package var reports: ReportStore { ReportStore(database: database) }

    /// Wraps `database`, telling the time by `clock`; call ``migrate()`` before use.
    package init(database: any CensusDatabase, clock: any CensusClock = SystemCensusClock()) {
        self.database = database
        self.clock = clock
    }

    /// Creates or updates the schema.
    package func migrate() async throws {
        let now = clock.seconds()
        try await database.withSQL { try await Schema.migrate($0, at: now) }
    }

    /// Inserts `pings` in one statement (one commit) and returns the keys (``IncomingPing/key``)
    /// that were new; a ping key already stored is left alone, so a re-delivered ping is credited once. The spans of
    /// their sessions are written first when they need to be (``SessionSpans``).
    package func insert(_ pings: [IncomingPing], receivedAt: Int64) async throws -> Set<String> {
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
    package func recordReject(reason: String, rawRequest: String, receivedAt: Int64) async throws {
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
    package struct NewReject: Sendable {
        package var id: String
        package var reason: String
        package var rawRequest: String
        package var appid: String
        package var bytes: Int64
    }

    /// `text` as every backend can store it: a NUL (which a refused batch line may carry raw, and
    /// which PostgreSQL's text refuses, failing every reject committed with it) becomes U+FFFD.
    static func storable(_ text: String) -> String {
        text.utf8.contains(0) ? text.replacingOccurrences(of: "\u{0}", with: "\u{FFFD}") : text
    }

    /// Records refused requests with their reasons, in one statement.
    package func recordRejects(_ rejects: [(reason: String, rawRequest: String)], receivedAt: Int64) async throws {
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

    /// How many pings and rejects are stored.
    package func counts() async throws -> (pings: Int64, rejects: Int64) {
        try await database.withSQL { db in
            let pings = try await db.select().column(SQLRaw("COUNT(*)"), as: "n").from("census_pings").first()?
                .decode(column: "n", as: Int64.self) ?? 0
            let rejects = try await db.select().column(SQLRaw("COUNT(*)"), as: "n").from("census_rejects").first()?
                .decode(column: "n", as: Int64.self) ?? 0
            return (pings, rejects)
        }
    }

    /// The latest refused requests, newest first.
    package func recentRejects(limit: Int = 100) async throws -> [RejectRow] {
        try await database.withSQL { db in
            try await db.select().columns("received_at", "reason", "raw_request").from("census_rejects")
                .orderBy("received_at", .descending).limit(limit).all()
                .map { row in
                    RejectRow(receivedAt: try row.decode(column: "received_at", as: Int64.self),
                              reason: try row.decode(column: "reason", as: String.self),
                              rawRequest: try row.decode(column: "raw_request", as: String.self))
                }
        }
    }

    /// The reasons of the stored rejects, newest last.
    package func rejectReasons() async throws -> [String] {
        try await database.withSQL { db in
            try await db.select().column("reason").from("census_rejects").orderBy("received_at").all()
                .map { try $0.decode(column: "reason", as: String.self) }
        }
    }
}

/// A refused request, as the dashboard lists it.
package struct RejectRow: Sendable, Equatable, Codable {
    /// When it was received, milliseconds since 1970.
    package var receivedAt: Int64
    /// Why it was refused.
    package var reason: String
    /// The request as received, cut to ``PingValidator/maxURLBytes``.
    package var rawRequest: String
}
