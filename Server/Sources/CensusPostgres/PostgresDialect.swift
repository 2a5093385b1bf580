import CensusStore
import SQLKit

/// PostgreSQL's words for the shared SQL (``CensusDialect``): several census servers may share
/// one database, so schema changes tolerate one another and per-key work takes a lock.
struct PostgresDialect: CensusDialect {
    /// Another server may have added the column meanwhile.
    let addColumnIfNotExists = "IF NOT EXISTS "
    let withoutRowID = ""
    let findFunction = "strpos"
    /// Partitioned by the week of receipt, the keys apart (census-decisions.md S53).
    var pings: any PingLayout { WeeklyPingPartitions() }
    /// In two arrays of BIGINT, read without text.
    let pingTimesAggregate: PingTimesAggregate = .arrays

    /// Text columns take the database's collation unless told otherwise (``ByteOrderedText``).
    func makeTextByteOrdered(_ db: CensusSQL) async throws {
        try await ByteOrderedText.migrate(db)
    }

    /// `BEGIN` … `COMMIT`, returning once the `COMMIT` is answered (``inTransaction(run:_:)``).
    func inTransaction<Result: Sendable>(_ db: CensusSQL, _ body: () async throws -> Result) async throws -> Result {
        try await CensusPostgres.inTransaction(run: { try await db.raw(SQLQueryString($0)).run() }, body)
    }

    /// `pg_advisory_xact_lock` on the key's hash, released with the transaction.
    func inTransactionHoldingLock<Result: Sendable>(
        on key: String, _ db: CensusSQL, _ body: () async throws -> Result
    ) async throws -> Result {
        try await inTransaction(db) {
            try await db.raw("SELECT pg_advisory_xact_lock(hashtext(\(bind: key)))").run()
            return try await body()
        }
    }

    /// In one transaction holding a lock: PostgreSQL's `IF NOT EXISTS` does not stop two sessions
    /// creating one table at once, so servers starting together migrate one after the other, each
    /// seeing what the one before did.
    func inMigrationTransaction(_ db: CensusSQL, _ body: () async throws -> Void) async throws {
        try await inTransactionHoldingLock(on: "appmeter census migrations", db, body)
    }
}
