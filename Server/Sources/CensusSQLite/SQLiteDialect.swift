import CensusStore
import SQLKit

/// SQLite's words for the shared SQL (``CensusDialect``): one process owns the file and its one
/// writing connection serialises every write, so nothing waits for another server.
struct SQLiteDialect: CensusDialect {
    /// SQLite has no `ADD COLUMN IF NOT EXISTS`; its migrations run one at a time.
    let addColumnIfNotExists = ""
    /// A table keyed by text is kept in its key's order alone, not beside a row id.
    let withoutRowID = " WITHOUT ROWID"
    let findFunction = "instr"
    /// The census's one file keeps one table of pings (census-decisions.md S53).
    var pings: any PingLayout { SingleTablePings() }
    /// In text: SQLite has no arrays.
    let pingTimesAggregate: PingTimesAggregate = .text

    /// SQLite compares text byte by byte already.
    func makeTextByteOrdered(_ db: CensusSQL) async throws {}

    /// SQLite answers a statement sent alone once it is committed; and a `BEGIN` on the one
    /// connection the census shares would take in the statements of other tasks.
    func inTransaction<Result: Sendable>(_ db: CensusSQL, _ body: () async throws -> Result) async throws -> Result {
        try await body()
    }

    /// On the one connection the census shares, whose writes the census serialises itself.
    func inTransactionHoldingLock<Result: Sendable>(
        on key: String, _ db: CensusSQL, _ body: () async throws -> Result
    ) async throws -> Result {
        try await body()
    }

    /// `BEGIN IMMEDIATE`: the migrations run before anything else uses the connection, and a
    /// migration stopped half-way (a kill, a full disk) leaves the schema as it was, never half
    /// rewritten. Migration 14 in particular cannot be run again over its own half-done work.
    func inMigrationTransaction(_ db: CensusSQL, _ body: () async throws -> Void) async throws {
        try await db.raw("BEGIN IMMEDIATE").run()
        do {
            try await body()
            try await db.raw("COMMIT").run()
        } catch {
            try? await db.raw("ROLLBACK").run()
            throw error
        }
    }
}
