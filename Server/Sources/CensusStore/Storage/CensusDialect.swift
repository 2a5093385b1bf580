import SQLKit

/// The SQL that differs between the census's engines, asked for by the shared schema and queries
/// (`Storage/Shared/`) instead of checking which engine they run on: a few words as values, and
/// the statements around a transaction as methods.
package protocol CensusDialect: Sendable {
    /// `IF NOT EXISTS ` where `ALTER TABLE … ADD COLUMN` takes it and another server may have added
    /// the column meanwhile (PostgreSQL); empty where the clause does not exist and migrations are
    /// serialised anyway (SQLite).
    var addColumnIfNotExists: String { get }
    /// ` WITHOUT ROWID` after a table kept in its primary key's order alone, where a table has a
    /// row id otherwise (SQLite); empty elsewhere.
    var withoutRowID: String { get }
    /// The function giving the position of text in text (`0` when absent): `instr` or `strpos`.
    var findFunction: String { get }
    /// How `census_pings` is laid out over time: one table, or partitions by week
    /// (``PingLayout``, census-decisions.md S53).
    var pings: any PingLayout { get }
    /// How an audience's pings are gathered a device's day at a time (census-decisions.md S55).
    var pingTimesAggregate: PingTimesAggregate { get }

    /// Declares the census's text columns byte-ordered where the engine compares text otherwise
    /// (PostgreSQL, ``ByteOrderedText``); nothing where it compares bytes already (SQLite).
    func makeTextByteOrdered(_ db: CensusSQL) async throws

    /// Runs `body`'s writes in one transaction and returns once it is committed, where a statement
    /// sent alone can be answered before its commit (PostgreSQL, census-decisions.md S48); as it is
    /// where each statement is committed before its answer (SQLite).
    ///
    /// - Throws: ``CensusError/commitUnconfirmed(reason:)`` when the commit was sent and not
    ///   answered: it may be stored or not.
    func inTransaction<Result: Sendable>(_ db: CensusSQL, _ body: () async throws -> Result) async throws -> Result

    /// Runs `body` in a transaction holding a lock on `key` where servers share the database
    /// (PostgreSQL), so that they run it for one key one after the other; as it is where the
    /// census's one connection serialises its writes itself (SQLite).
    func inTransactionHoldingLock<Result: Sendable>(
        on key: String, _ db: CensusSQL, _ body: () async throws -> Result
    ) async throws -> Result

    /// Runs the migrations (`body`) in one transaction, so that one stopped half-way leaves the
    /// schema as it was, and servers starting together migrate one after the other.
    func inMigrationTransaction(_ db: CensusSQL, _ body: () async throws -> Void) async throws
}
