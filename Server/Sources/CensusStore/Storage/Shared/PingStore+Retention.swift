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
    /// 1970), and pings before `pingCutoff` when the operator keeps pings for a while; returns how
    /// many rows went. Pings go in chunks, so a first prune of a large table does not hold the
    /// writer for long.
    package func prune(before cutoff: Int64, pingsBefore pingCutoff: Int64?) async throws -> Int {
        try await database.withSQL { db in
            var removed = 0
            for table in ["census_rejects", "census_trace"] {
                removed += try await db.delete(from: table).where("received_at", .lessThan, cutoff).returning("received_at").all().count
            }
            guard let pingCutoff else { return removed }
            while true {
                let batch = try await db.raw("""
                    DELETE FROM census_pings WHERE ping_id IN
                      (SELECT ping_id FROM census_pings WHERE received_at < \(bind: pingCutoff) LIMIT 5000)
                    RETURNING ping_id
                    """).all().count
                removed += batch
                if batch < 5000 { return removed }
            }
        }
    }
}
