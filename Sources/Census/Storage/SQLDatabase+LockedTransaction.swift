import SQLKit

extension SQLDatabase {
    /// Runs `body` in a transaction holding a lock on `key` on PostgreSQL, so servers sharing the
    /// database run it for one key one after the other; on SQLite as it is, on the one connection
    /// the census shares, whose writes the census serialises itself.
    func inTransactionHoldingLock<Result: Sendable>(on key: String, _ body: () async throws -> Result) async throws -> Result {
        guard dialect.name == "postgresql" else { return try await body() }
        try await raw("BEGIN").run()
        do {
            try await raw("SELECT pg_advisory_xact_lock(hashtext(\(bind: key)))").run()
            let result = try await body()
            try await raw("COMMIT").run()
            return result
        } catch {
            try? await raw("ROLLBACK").run()
            throw error
        }
    }
}
