import NIOConcurrencyHelpers
import SQLiteNIO

/// The ping insert of the embedded backend, straight through sqlite-nio: the same statement as
/// ``PingStore/insert(_:receivedAt:)`` writes through SQLKit, without building an expression
/// tree and encoding each of a batch's 7,500 values through `Encodable` (a tenth of the census's
/// CPU under load, docs/performance.md).
extension SQLiteCensusDatabase {
    func insertPings(_ pings: [IncomingPing], receivedAt: Int64) async throws -> Set<String> {
        var binds: [SQLiteData] = []
        binds.reserveCapacity(pings.count * PingStore.pingColumns.count)
        for ping in pings {
            for value in PingStore.row(of: ping, receivedAt: receivedAt) {
                switch value {
                case .text(let text): binds.append(.text(text))
                case .integer(let number): binds.append(.integer(SQLiteInt64(number)))
                }
            }
        }
        let stored = NIOLockedValueBox(Set<String>())
        try await connection.query(Self.insertStatement(rows: pings.count), binds) { row in
            if case .text(let id)? = row.column("ping_id") { stored.withLockedValue { _ = $0.insert(id) } }
        }
        await checkpointer.catchUpIfDue(on: connection)
        return stored.withLockedValue { $0 }
    }

    /// `INSERT … VALUES (?, …), … ON CONFLICT (ping_id) DO NOTHING RETURNING ping_id` for `rows` rows.
    static func insertStatement(rows: Int) -> String {
        let row = "(" + Array(repeating: "?", count: PingStore.pingColumns.count).joined(separator: ", ") + ")"
        return "INSERT INTO census_pings (" + PingStore.pingColumns.joined(separator: ", ") + ") VALUES "
            + Array(repeating: row, count: rows).joined(separator: ", ")
            + " ON CONFLICT (ping_id) DO NOTHING RETURNING ping_id"
    }
}
