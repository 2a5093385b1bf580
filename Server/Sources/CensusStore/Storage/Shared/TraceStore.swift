import Foundation
package import MeterWire
import SQLKit

/// A traced SDK instance, as the sessions list shows it.
package struct TraceSessionRow: Sendable, Equatable, Codable {
    /// The SDK instance's session.
    package var session: String
    /// The app it measured for.
    package var appid: String
    /// The SDK, as it named itself.
    package var sdk: String
    /// The first call, Unix seconds.
    package var firstCall: Double
    /// The last call, Unix seconds.
    package var lastCall: Double
    /// Entries stored.
    package var calls: Int64
}

/// The SDK call traces of development configurations (`census_trace`, docs/protocol.md §2h) and
/// what certifies them: the pings a trace says were built, and the census's signing key. A
/// ``PingStore``'s ``PingStore/traces``.
package struct TraceStore: Sendable {
    /// The database.
    let database: any CensusDatabase
    /// The census's clock, which dates a new signing key and a signed export.
    let clock: any CensusClock

    /// Stores a trace batch; an entry already stored (a retried batch) is kept as it was. Returns
    /// how many entries were new. Each entry's time is listed and ordered by within the window
    /// around the batch's receipt (``SenderClock``, census-decisions.md S42); the entry keeps its
    /// time as sent, which certification reads.
    @discardableResult
    package func insert(_ batch: CallTraceBatch, receivedAt: Int64) async throws -> Int {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let rows = try batch.entries.map { entry in
            (entry, String(decoding: try encoder.encode(entry), as: UTF8.self))
        }
        return try await database.withCommittedSQL { db in
            var insert = db.insert(into: "census_trace")
                .columns("session", "seq", "appid", "sdk", "received_at", "call_time", "call", "entry", "bytes")
            for (entry, json) in rows {
                insert = insert.values(batch.session, Int64(entry.seq), batch.appid, batch.sdk, receivedAt,
                                       SenderClock.held(seconds: entry.time, receivedAtMilliseconds: receivedAt),
                                       entry.call, json, StorageBudget.bytes(ofTraceEntry: json))
            }
            // Keyed by app too: another app's entries under this session id take no number from it
            // (census-decisions.md S43).
            return try await insert.ignoringConflicts(with: ["session", "appid", "seq"]).returning("seq").all().count
        }
    }

    /// The traced sessions, one per session and app, latest activity first (of `appid` only, or
    /// named `session`, when given; at most `limit`, nil: all). Sessions are keyed by app and id:
    /// another app's entries under the same id are another row (census-decisions.md S43).
    package func traceSessions(appid: String? = nil, session: String? = nil, limit: Int? = 200) async throws -> [TraceSessionRow] {
        try await database.withSQL { db in
            var select = db.select()
                .column("session").column("appid").column(SQLRaw("MIN(sdk)"), as: "sdk")
                .column(SQLRaw("MIN(call_time)"), as: "first_call").column(SQLRaw("MAX(call_time)"), as: "last_call")
                .column(SQLRaw("COUNT(*)"), as: "calls")
                .from("census_trace")
            if let appid { select = select.where("appid", .equal, appid) }
            if let session { select = select.where("session", .equal, session) }
            select = select.groupBy("session").groupBy("appid").orderBy(SQLRaw("MAX(call_time) DESC"))
            if let limit { select = select.limit(limit) }
            return try await select.all()
                .map { row in
                    TraceSessionRow(
                        session: try row.decode(column: "session", as: String.self),
                        appid: try row.decode(column: "appid", as: String.self),
                        sdk: try row.decode(column: "sdk", as: String.self),
                        firstCall: try row.decode(column: "first_call", as: Double.self),
                        lastCall: try row.decode(column: "last_call", as: Double.self),
                        calls: try row.decode(column: "calls", as: Int64.self))
                }
        }
    }

    /// One session's trace under `appid`, in call order.
    package func trace(session: String, appid: String) async throws -> [CallTraceEntry] {
        try await database.withSQL { db in
            let decoder = JSONDecoder()
            return try await db.select().column("entry").from("census_trace").where("session", .equal, session)
                .where("appid", .equal, appid).orderBy("seq").all()
                .map { try decoder.decode(CallTraceEntry.self, from: Data(try $0.decode(column: "entry", as: String.self).utf8)) }
        }
    }

    /// The stored pings of `appid` with these ids (the pings a trace says were built), in
    /// creation order.
    package func pings(ids: [String], appid: String) async throws -> [StoredPing] {
        let ids = ids.map { PingKey.scoped(appID: appid, pingID: $0) }
        guard !ids.isEmpty else { return [] }
        var found: [StoredPing] = []
        // In chunks, under every database's limit on bound parameters.
        for start in stride(from: 0, to: ids.count, by: 500) {
            let chunk = Array(ids[start..<min(start + 500, ids.count)])
            found += try await database.withSQL { db in
                try await db.select().columns(StoredPing.columns)
                    .from("census_pings").where(try await db.engine.pings.rows(withKeys: chunk, db)).all()
                    .map(StoredPing.init(reading:))
            }
        }
        return found.sorted { ($0.createdAt, $0.pingID) < ($1.createdAt, $1.pingID) }
    }

    /// How many entries the census holds of trace session `session` of `appid`.
    package func traceEntryCount(session: String, appid: String) async throws -> Int64 {
        try await database.withSQL { db in
            try await db.select().column(SQLRaw("COUNT(*)"), as: "n").from("census_trace").where("session", .equal, session)
                .where("appid", .equal, appid).first()?.decode(column: "n", as: Int64.self) ?? 0
        }
    }
}
