import CensusStore
import SQLKit

/// SQLite's pings: one table in the census's one file, keyed by the ping's key, pruned row by row
/// (census-decisions.md S53).
struct SingleTablePings: PingLayout {
    let conflictTarget = ["ping_id"]

    func adopt(_ db: CensusSQL, at nowMilliseconds: Int64) async throws {}

    func prepare(_ db: CensusSQL, at nowMilliseconds: Int64) async throws {}

    /// In chunks, so that a first prune of a large table does not hold the writer for long.
    func prune(before cutoff: Int64, _ db: CensusSQL) async throws -> Int {
        var removed = 0
        while true {
            let batch = try await db.raw("""
                DELETE FROM census_pings WHERE ping_id IN
                  (SELECT ping_id FROM census_pings WHERE received_at < \(bind: cutoff) LIMIT 5000)
                RETURNING ping_id
                """).all().count
            removed += batch
            if batch < 5000 { return removed }
        }
    }

    /// The key is the row's: an upsert finds the stored row by it.
    func claim(_ keys: [String], receivedAt: Int64, _ db: CensusSQL) async throws -> [String: Int64] {
        Dictionary(keys.map { ($0, receivedAt) }, uniquingKeysWith: { first, _ in first })
    }

    /// `ping_id IN (…)`: the table's key.
    func rows(withKeys keys: [String], _ db: CensusSQL) async throws -> any SQLExpression {
        guard !keys.isEmpty else { return SQLRaw("1 = 0") }
        return SQLBinaryExpression(SQLColumn("ping_id"), .in, SQLGroupExpression(keys.map { SQLBind($0) }))
    }

    /// The key went with its row.
    func release(_ rows: [(key: String, receipt: Int64)], _ db: CensusSQL) async throws {}
}
