import SQLKit

/// A storage engine of the census, SQLite (`SQLite/`) or PostgreSQL (`PostgreSQL/`), behind the
/// one set of queries in `Shared/`.
///
/// What differs between the engines is what this protocol asks for: the words of their SQL (the
/// ``CensusDialect`` that ``withSQL(_:)`` hands over with a connection), how a group commit's
/// batches are written (``Writer``) and in what session, and where the writers run. Shared code
/// asks the engine; it never checks which one it has.
package protocol CensusDatabase: Sendable {
    /// What writes the group commit's batches: the engine's fast inserts, on what a writer's
    /// session holds.
    associatedtype Writer: CensusBatchWriter

    /// How many inserts may usefully run at once: 1 for a single connection; more for a pool,
    /// where one batch is inserted while another waits for its commit.
    var concurrentWriters: Int { get }
    /// How many items must wait before a writer beyond the first starts
    /// (``GroupCommit/committing(maxBatch:writers:waitingForAnotherWriter:startWriter:sessions:)``).
    var waitingForAnotherWriter: Int { get }

    /// Runs `body` with a connection and the engine's dialect.
    func withConnection<Result: Sendable>(_ body: @Sendable (CensusSQL) async throws -> Result) async throws -> Result

    /// The writer for inserts outside a group commit's session.
    var writer: Writer { get }
    /// Runs `batches`, a group-commit writer's consecutive inserts (``GroupCommit/Sessions``),
    /// with a writer holding what the engine keeps for all of them; it runs `batches` exactly once.
    func withWriterSession(_ batches: (Writer) async -> Void) async
    /// Starts a group-commit writer's task (``GroupCommit/StartWriter``) where its inserts run best.
    func startWriter(_ writer: @escaping @Sendable () async -> Void)

    /// What a log line says of a failure of this engine (``CensusError/storageUnavailable(reason:)``).
    func describe(_ error: any Error) -> String

    /// How far behind its primary this database's data is, in seconds, when it is a replica
    /// (`meter serve --read-database`); 0 when it is caught up or not a replica; nil where the
    /// engine has no replicas (SQLite).
    func replicationLag() async throws -> Double?

    /// Releases connections.
    func close() async
}

extension CensusDatabase {
    /// Another writer as soon as anything waits.
    package var waitingForAnotherWriter: Int { 1 }

    /// Nothing to hold: each insert runs on its own.
    package func withWriterSession(_ batches: (Writer) async -> Void) async {
        await batches(writer)
    }

    /// On Swift's shared threads.
    package func startWriter(_ writer: @escaping @Sendable () async -> Void) {
        Task { await writer() }
    }

    /// The error's own description.
    package func describe(_ error: any Error) -> String {
        "\(error)"
    }

    /// No replicas.
    package func replicationLag() async throws -> Double? { nil }

    /// ``withSQL(_:)`` for a write whose answer says it is done: `body`'s statements in one
    /// transaction, returned from once it is committed (``CensusDialect/inTransaction(_:_:)``,
    /// census-decisions.md S48).
    package func withCommittedSQL<Result: Sendable>(_ body: @Sendable (CensusSQL) async throws -> Result) async throws -> Result {
        try await withSQL { db in try await db.inTransaction { try await body(db) } }
    }

    /// Runs `body` with a connection and the engine's dialect; what fails is thrown as a
    /// ``CensusError`` (``typingFailures(_:)``).
    package func withSQL<Result: Sendable>(_ body: @Sendable (CensusSQL) async throws -> Result) async throws -> Result {
        try await typingFailures { try await withConnection(body) }
    }

    /// Runs `operation`, and throws what it throws as a ``CensusError``: one as it is, any other
    /// (the engine's driver's) as ``CensusError/storageUnavailable(reason:)``, described by the
    /// engine (``describe(_:)``).
    package func typingFailures<Result>(_ operation: () async throws -> Result) async throws -> Result {
        do {
            return try await operation()
        } catch let error as CensusError {
            throw error
        } catch {
            throw CensusError.storageUnavailable(reason: describe(error))
        }
    }
}

/// Writes a group commit's batches (``PingWriter``) the engine's own fastest way.
package protocol CensusBatchWriter: Sendable {
    /// Inserts `pings` in one statement, writing the session spans `needs` first (spans already
    /// covering a need are left alone, ``SessionSpans``), and returns the keys that were new
    /// (``PingStore/insert(_:receivedAt:)``).
    func insertPings(_ pings: [IncomingPing], writingSpans needs: [SessionSpans.Need],
                     receivedAt: Int64) async throws -> Set<String>
    /// Inserts refused requests in one statement.
    func insertRejects(_ rejects: [PingStore.NewReject], receivedAt: Int64) async throws
}
