package import CensusStore
import NIOConcurrencyHelpers
import SQLKit
import SQLiteNIO

/// The embedded engine's inserts of a group commit's batches, on its one connection.
///
/// A batch's session spans are written in a statement of their own just before its pings
/// (``SessionSpans``), so the spans of pings that then fail to commit are merely wider than needed.
/// The pings go straight through sqlite-nio: the same statement as SQLKit's portable insert,
/// without building an expression tree and encoding each of a batch's 7,500 values through
/// `Encodable` (8 % of the census's CPU under load, docs/performance.md).
package struct SQLiteBatchWriter: CensusBatchWriter {
    let database: SQLiteCensusDatabase

    package func insertPings(_ pings: [IncomingPing], writingSpans needs: [SessionSpans.Need],
                     receivedAt: Int64) async throws -> Set<String> {
        if !needs.isEmpty {
            try await database.withConnection { try await SessionSpans.write(needs, $0) }
        }
        var binds: [SQLiteData] = []
        binds.reserveCapacity(pings.count * PingColumn.all.count)
        for ping in pings {
            for value in PingStore.row(of: ping, receivedAt: receivedAt) {
                switch value {
                case .text(let text): binds.append(.text(text))
                case .integer(let number): binds.append(.integer(SQLiteInt64(number)))
                }
            }
        }
        let stored = NIOLockedValueBox(Set<String>())
        try await database.connection.query(Self.insertStatement(rows: pings.count), binds) { row in
            if case .text(let id)? = row.column("ping_id") { stored.withLockedValue { _ = $0.insert(id) } }
        }
        await database.checkpointer.catchUpIfDue(on: database.connection)
        return stored.withLockedValue { $0 }
    }

    /// `INSERT … VALUES (?, …), … ON CONFLICT (ping_id) DO NOTHING RETURNING ping_id` for `rows` rows:
    /// its parts made once, the statement laid out in one buffer (issue 49: joining them anew for
    /// every batch cost a tenth of a lone ping's instructions, `scripts/instruction-guard`).
    static func insertStatement(rows: Int) -> String {
        var statement = ""
        statement.reserveCapacity(insertHead.utf8.count + rows * (insertRow.utf8.count + 2) + insertTail.utf8.count)
        statement += insertHead
        for index in 0..<rows {
            if index > 0 { statement += ", " }
            statement += insertRow
        }
        statement += insertTail
        return statement
    }

    private static let insertHead = "INSERT INTO census_pings (" + PingStore.pingColumns.joined(separator: ", ") + ") VALUES "
    private static let insertRow = "(" + Array(repeating: "?", count: PingColumn.all.count).joined(separator: ", ") + ")"
    private static let insertTail = " ON CONFLICT (ping_id) DO NOTHING RETURNING ping_id"

    /// Through SQLKit: refused requests are few, and short of the pings' columns.
    package func insertRejects(_ rejects: [PingStore.NewReject], receivedAt: Int64) async throws {
        try await database.withConnection { db in
            var insert = db.insert(into: "census_rejects").columns("reject_id", "received_at", "reason", "raw_request", "appid", "bytes")
            for reject in rejects {
                insert = insert.values(reject.id, receivedAt, reject.reason, reject.rawRequest, reject.appid, reject.bytes)
            }
            try await insert.run()
        }
    }
}
