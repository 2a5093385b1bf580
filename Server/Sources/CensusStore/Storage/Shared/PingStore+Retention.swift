import SQLKit

/// What the census keeps of refused requests, traces and pings, and for how long
/// (``StorageBudget``, ``StorageLimits``): the bytes each app's rows take, and pruning by age.
extension PingStore {
    /// The bytes each app's rows take in `table` (`census_rejects` or `census_trace`), for the
    /// storage budget.
    func storedBytesByApp(in table: String) async throws -> [(String, Int64)] {
        try await database.withSQL { db in
            try await db.select().column("appid").column(SQLRaw("CAST(SUM(bytes) AS BIGINT)"), as: "bytes")
                .from(table).groupBy("appid").all()
                .map { (try $0.decode(column: "appid", as: String.self), try $0.decode(column: "bytes", as: Int64.self)) }
        }
    }

    /// Deletes refused requests and trace entries received before `cutoff` (milliseconds since
    /// 1970), and pings before `pingCutoff` when the operator keeps pings for a while, as the
    /// engine's layout prunes them (``PingLayout/prune(before:_:)``); returns how many rows went.
    package func prune(before cutoff: Int64, pingsBefore pingCutoff: Int64?) async throws -> Int {
        try await database.withSQL { db in
            var removed = 0
            for table in ["census_rejects", "census_trace"] {
                removed += try await db.delete(from: table).where("received_at", .lessThan, cutoff).returning("received_at").all().count
            }
            guard let pingCutoff else { return removed }
            return removed + (try await db.engine.pings.prune(before: pingCutoff, db))
        }
    }

    /// Makes the room the pings of the coming weeks need (``PingLayout/prepare(_:at:)``), as of
    /// the store's clock.
    package func preparePings() async throws {
        let now = clock.milliseconds()
        try await database.withSQL { try await $0.engine.pings.prepare($0, at: now) }
    }
}
