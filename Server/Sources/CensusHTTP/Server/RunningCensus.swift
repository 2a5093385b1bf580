package import CensusStore
import Foundation
import Hummingbird
package import Logging
import ServiceLifecycle
import UnixSignals

/// A census server running in this process: `meter demo` and the end-to-end tests start one on
/// a free loopback port, use it, and stop it.
package final class RunningCensus: Sendable {
    /// The port it listens on.
    package let port: Int
    /// The host it listens on.
    package let host: String
    /// The server (store, writer, counters).
    package let server: CensusServer
    private let group: ServiceGroup
    private let runner: Task<Void, any Error>
    private let database: any CensusDatabase
    private let readDatabase: (any CensusDatabase)?

    private init(
        port: Int, host: String, server: CensusServer, group: ServiceGroup, runner: Task<Void, any Error>,
        database: any CensusDatabase, readDatabase: (any CensusDatabase)?, usesTLS: Bool
    ) {
        self.readDatabase = readDatabase
        self.usesTLS = usesTLS
        self.port = port
        self.host = host
        self.server = server
        self.group = group
        self.runner = runner
        self.database = database
    }

    /// Whether it answers HTTPS.
    package let usesTLS: Bool

    /// The base URL to give the SDK as `nol_collectorURL`.
    package var baseURL: String { "\(usesTLS ? "https" : "http")://\(host):\(port)" }

    /// Runs until the process is asked to stop (SIGINT/SIGTERM), then stops.
    package func runUntilTerminated() async throws {
        let outcome = await runner.result
        server.accessLog?.flush()
        await database.close()
        await readDatabase?.close()
        try outcome.get()
    }

    /// Opens and migrates `database`, then starts listening on `host:port` (0: a free port), over
    /// HTTPS with `tls`, writing `accessLog` (none by default: tests and `meter demo` need none),
    /// telling the time by `clock` (``CensusClock``). With `readDatabase`, a replica of
    /// `database`, the read routes read from it (``ReadReplica``).
    package static func start(
        database location: DatabaseLocation, readDatabase readLocation: DatabaseLocation? = nil,
        host: String = "127.0.0.1", port: Int = 0, tls: CensusTLS? = nil,
        access: CensusAccess = .open, policy: CensusPolicy = .standard, connectionLimits: ConnectionLimits = .standard(),
        accessLog: AccessLog? = nil, clock: any CensusClock = SystemCensusClock(), logger: Logger = Logger(label: "Census")
    ) async throws -> RunningCensus {
        let database = try await location.open(logger: logger)
        let store = PingStore(database: database, clock: clock)
        let readDatabase: (any CensusDatabase)?
        do {
            try await store.migrate()
            // Not migrated: a replica takes its schema from the primary, migrated just now.
            readDatabase = try await readLocation?.open(logger: logger)
        } catch {
            await database.close()
            throw error
        }
        let replica = readDatabase.map { ReadReplica(store: PingStore(database: $0, clock: clock)) }
        await replica?.sample()
        let server = CensusServer(store: store, replica: replica, access: access, policy: policy, connectionLimits: connectionLimits,
                                  accessLog: accessLog, logger: logger)
        // Apps and the storage budget are known before the first request.
        await server.maintain()
        let (ports, portContinuation) = AsyncStream.makeStream(of: Int.self)
        let application: any Service
        do {
            application = try server.application(host: host, port: port, tls: tls) { portContinuation.yield($0) }
        } catch {
            await database.close()
            await readDatabase?.close()
            throw error
        }
        var services: [any Service] = [application, LiveFeedCloser(feed: server.feed), CensusMaintenance(intake: server.intake)]
        if let replica { services.append(ReadReplicaWatch(replica: replica)) }
        let group = ServiceGroup(configuration: .init(
            services: services,
            gracefulShutdownSignals: [.sigterm, .sigint],
            logger: logger))
        let runner = Task {
            defer { portContinuation.finish() }
            try await group.run()
        }
        var iterator = ports.makeAsyncIterator()
        guard let boundPort = await iterator.next() else {
            await database.close()
            await readDatabase?.close()
            try await runner.value
            throw CancellationError()
        }
        return RunningCensus(
            port: boundPort, host: host, server: server, group: group, runner: runner, database: database,
            readDatabase: readDatabase, usesTLS: tls != nil)
    }

    /// Stops listening (finishing requests in flight) and closes the database.
    package func stop() async {
        await group.triggerGracefulShutdown()
        _ = try? await runner.value
        server.accessLog?.flush()
        await database.close()
        await readDatabase?.close()
    }
}
