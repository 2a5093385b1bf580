import CensusStore
import Logging
import PostgresNIO

/// Runs `body`'s statements in one transaction, and returns only once PostgreSQL has answered its
/// `COMMIT` (census-decisions.md S48); `run` sends a statement without parameters (`BEGIN`,
/// `COMMIT`, `ROLLBACK`) on the connection `body` uses.
///
/// A statement sent alone commits at the protocol's `Sync`, after PostgreSQL has answered it
/// `CommandComplete`, and postgres-nio ends the statement at `CommandComplete`: a commit that then
/// failed, waited for a synchronous standby, or lost its connection was taken as done. An explicit
/// `COMMIT` is answered once the transaction is committed (and, in synchronous replication, on the
/// standby too).
///
/// - Throws: what `body` throws, after a `ROLLBACK`: nothing is stored. PostgreSQL's refusal of the
///   `COMMIT` (an error it answers): nothing is stored. ``CensusError/commitUnconfirmed(reason:)``
///   when the `COMMIT` was sent and no answer came: it may be committed or not.
func inTransaction<Result>(run: (String) async throws -> Void, _ body: () async throws -> Result) async throws -> Result {
    try await run("BEGIN")
    let result: Result
    do {
        result = try await body()
    } catch {
        // A connection that fails its ROLLBACK is closed, which rolls the transaction back too.
        try? await run("ROLLBACK")
        throw error
    }
    do {
        try await run("COMMIT")
    } catch let error as PSQLError where error.serverInfo != nil {
        throw error
    } catch {
        throw CensusError.commitUnconfirmed(reason: storageErrorDescription(error))
    }
    return result
}

/// ``inTransaction(run:_:)`` on `connection`.
func inTransaction<Result>(on connection: PostgresConnection, logger: Logger,
                           _ body: () async throws -> Result) async throws -> Result {
    try await inTransaction(run: { try await connection.query(PostgresQuery(unsafeSQL: $0), logger: logger) }, body)
}
