package import CensusStore
import Foundation
package import Logging
import NIOPosix
import PostgresKit
import SQLKit

/// PostgreSQL through postgres-nio's `PostgresClient` pool; several `meter serve` processes may
/// share one server.
package final class PostgresCensusDatabase: CensusDatabase {
    /// Two batches in flight: one is inserted while the other waits for PostgreSQL to flush its
    /// commit; three or more made batches smaller without more throughput (docs/performance.md).
    package var concurrentWriters: Int { 2 }
    /// The second writer starts once 16 pings wait: each batch costs PostgreSQL a statement and a
    /// commit, and one started for a ping or two made batches smaller, not the census faster
    /// (census-decisions.md S12, docs/performance.md).
    package var waitingForAnotherWriter: Int { 16 }
    let client: PostgresClient
    private let runner: Task<Void, Never>
    /// Ends when `runner` is about to run the client (``waitUntilRunning()``).
    private let runnerStarted: AsyncStream<Void>
    /// The one thread of the client's connections, on which the writers run too
    /// (``startWriter(_:)``). One is plenty: per batch it encodes the columns and sends one
    /// statement, and the answer is a single line.
    private let connectionLoop: MultiThreadedEventLoopGroup
    private let writerExecutor: EventLoopTaskExecutor
    /// The writers' connections, outside the pool (``withWriterSession(_:)``).
    let writerConnections: PostgresWriterConnections
    /// Vacuums what the writers appended, while it is in PostgreSQL's buffers.
    let appendVacuum: PostgresAppendVacuum

    /// Settings of the census's own sessions, sent when each connection starts.
    ///
    /// `backend_flush_after`: the census only appends rows, and once `census_pings` outgrows
    /// PostgreSQL's buffers the inserting sessions evict the pages they filled into the kernel's
    /// page cache, where they wait for the next checkpoint's `fsync` (PostgreSQL's default leaves
    /// them there). Every commit's WAL flush then waited behind that `fsync`, and a checkpoint
    /// mid-run set the p99; asking the kernel to write the pages as they are evicted does not,
    /// and a page of appended rows is not written again, so writing it early costs nothing
    /// (census-decisions.md S13; figures in docs/performance.md).
    static let sessionSettings = [("backend_flush_after", "256kB")]

    package init(url: String, logger: Logger, rowsPerVacuum: Int = PostgresAppendVacuum.defaultRowsPerVacuum) throws {
        guard let parsed = try? SQLPostgresConfiguration(url: url) else {
            throw CensusError.badDatabaseURL(url)
        }
        let core = parsed.coreConfiguration
        guard let host = core.host, let port = core.port else { throw CensusError.badDatabaseURL(url) }
        let tls: PostgresClient.Configuration.TLS =
            switch (core.tls.isEnforced, core.tls.isAllowed, core.tls.sslContext?.configuration) {
            case (true, _, let configuration?): .require(configuration)
            case (false, true, let configuration?): .prefer(configuration)
            default: .disable
            }
        var configuration = PostgresClient.Configuration(
            host: host, port: port, username: core.username, password: core.password, database: core.database,
            tls: tls)
        configuration.options.additionalStartupParameters = Self.sessionSettings
        connectionLoop = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        writerExecutor = EventLoopTaskExecutor(eventLoop: connectionLoop.next())
        var writerConfiguration = core
        writerConfiguration.options.additionalStartupParameters = Self.sessionSettings
        writerConnections = PostgresWriterConnections(
            configuration: writerConfiguration, eventLoop: writerExecutor.eventLoop, logger: logger)
        let client = PostgresClient(configuration: configuration, eventLoopGroup: connectionLoop, backgroundLogger: logger)
        self.client = client
        let (started, start) = AsyncStream<Void>.makeStream()
        runnerStarted = started
        runner = Task {
            start.finish()
            await client.run()
        }
        appendVacuum = PostgresAppendVacuum(rowsPerVacuum: rowsPerVacuum, logger: logger) { table in
            let wanted = PostgresAppendVacuum.tables(for: table, at: SystemCensusClock().milliseconds())
            var found: [String] = []
            // A week not made yet is not there to vacuum (its pings are in the default partition).
            for try await name in try await client.query(
                "SELECT relname::text FROM pg_class WHERE relname = ANY(\(wanted)) AND pg_table_is_visible(oid)").decode(String.self) {
                found.append(name)
            }
            guard !found.isEmpty else { return }
            for try await _ in try await client.query(PostgresQuery(unsafeSQL: PostgresAppendVacuum.statement(for: found))) {}
        }
    }

    /// Returns once the runner task has started, which then calls `client.run()` without
    /// suspending: a statement sent before that still waits for the pool, but postgres-nio logs a
    /// warning for it, and `meter serve` began two starts in three with one.
    package func waitUntilRunning() async {
        for await _ in runnerStarted {}
    }

    package func withConnection<Result: Sendable>(_ body: @Sendable (CensusSQL) async throws -> Result) async throws -> Result {
        try await client.withConnection { connection in
            try await body(CensusSQL(connection.sql(), engine: PostgresDialect()))
        }
    }

    /// Outside a session, each insert takes a connection from the pool.
    package var writer: PostgresBatchWriter { PostgresBatchWriter(database: self, connection: nil) }

    /// Holds one of the writers' own connections for a writer's consecutive batches
    /// (``PostgresWriterConnections`` says why not the pool's); without one, they use the pool.
    package func withWriterSession(_ batches: (PostgresBatchWriter) async -> Void) async {
        await writerConnections.withConnection { connection in
            await batches(PostgresBatchWriter(database: self, connection: connection))
        }
    }

    /// On the event loop of the client's connections: a batch is sent and its commit's answer
    /// read on that thread, with no switch to Swift's shared threads and back, and no wait behind
    /// the HTTP event loops' requests (``EventLoopTaskExecutor``).
    package func startWriter(_ writer: @escaping @Sendable () async -> Void) {
        writerExecutor.startTask(writer)
    }

    /// With PostgreSQL's SQLSTATE and message, which postgres-nio leaves out (``storageErrorDescription(_:)``).
    package func describe(_ error: any Error) -> String {
        storageErrorDescription(error)
    }

    package func close() async {
        await appendVacuum.close()
        await writerConnections.close()
        runner.cancel()
        _ = await runner.value
        try? await connectionLoop.shutdownGracefully()
    }
}
