@testable import CensusHTTP
@testable import CensusPostgres
@testable import CensusSQLite
@testable import CensusStore
@testable import MeterTables
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import PostgresNIO
import Testing

/// The PostgreSQL writers' own connections (``PostgresWriterConnections``, census-decisions.md S15): kept
/// between sessions, one per concurrent session, never handed out closed or stale, and with the
/// census's session settings.
@Suite struct PostgresWriterConnectionsTests {
    @Test func withNoServerASessionsBatchesStillRunWithoutAConnectionOfTheirOwn() async throws {
        // No server: the writer's connection cannot open, and its batches ask the pool, which
        // fails them with the reason (answered 503), instead of being dropped.
        let database = try PostgresCensusDatabase(url: "postgres://nobody@127.0.0.1:1/none", logger: Logger(label: "test"))
        var ran = false
        var held = true
        await database.withWriterSession { writer in
            ran = true
            held = writer.connection != nil
        }
        await database.close()
        #expect(ran)
        #expect(!held)
        #expect(database.writerConnections.idleCount == 0)
    }
}

@Suite(.enabled(if: Backend.postgresURL != nil, "needs APPMETER_TEST_POSTGRES_URL"))
struct PostgresWriterConnectionsServerTests {
    /// Writer connections to a fresh database, idle for at most `maximumIdle`; `body` runs, then
    /// everything is closed.
    func withConnections(
        maximumIdle: TimeAmount = .seconds(30), _ body: (PostgresWriterConnections) async throws -> Void
    ) async throws {
        try await Backend.postgres.withOpenDatabase { database in
            let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
            let configuration = try #require(database as? PostgresCensusDatabase).writerConnections.configuration
            let connections = PostgresWriterConnections(
                configuration: configuration, eventLoop: group.next(), maximumIdle: maximumIdle, logger: Logger(label: "test"))
            do {
                try await body(connections)
            } catch {
                await connections.close()
                try await group.shutdownGracefully()
                throw error
            }
            await connections.close()
            try await group.shutdownGracefully()
        }
    }

    /// The connection `connections` hands a session.
    func connection(of connections: PostgresWriterConnections) async -> PostgresConnection? {
        var held: PostgresConnection?
        await connections.withConnection { held = $0 }
        return held
    }

    @Test func aSessionsConnectionServesTheNextSession() async throws {
        try await withConnections { connections in
            let first = try #require(await connection(of: connections))
            let second = try #require(await connection(of: connections))
            #expect(first === second)
            #expect(connections.idleCount == 1)
        }
    }

    @Test func concurrentSessionsHoldConnectionsOfTheirOwn() async throws {
        try await withConnections { connections in
            var pair: (PostgresConnection?, PostgresConnection?)
            await connections.withConnection { outer in
                await connections.withConnection { inner in pair = (outer, inner) }
            }
            let (outer, inner) = (try #require(pair.0), try #require(pair.1))
            #expect(outer !== inner)
            #expect(connections.idleCount == 2)
        }
    }

    @Test func aConnectionClosedWhileIdleIsNotHandedOutAgain() async throws {
        try await withConnections { connections in
            let first = try #require(await connection(of: connections))
            try await first.close()
            let second = try #require(await connection(of: connections))
            #expect(first !== second)
            #expect(!second.isClosed)
            #expect(connections.idleCount == 1)
        }
    }

    @Test func aConnectionClosedInItsSessionIsNotKept() async throws {
        try await withConnections { connections in
            await connections.withConnection { connection in try? await connection?.close() }
            #expect(connections.idleCount == 0)
        }
    }

    @Test func aConnectionIdleLongerThanAllowedIsClosedAndReplaced() async throws {
        try await withConnections(maximumIdle: .zero) { connections in
            let first = try #require(await connection(of: connections))
            let second = try #require(await connection(of: connections))
            #expect(first !== second)
            #expect(first.isClosed)
        }
    }

    @Test func afterCloseNoConnectionIsHandedOutAndOneInASessionIsClosedWhenItComesBack() async throws {
        try await withConnections { connections in
            var held: PostgresConnection?
            await connections.withConnection { connection in
                held = connection
                await connections.close()
            }
            #expect(held?.isClosed == true)
            #expect(await connection(of: connections) == nil)
        }
    }

    @Test func aWritersSessionRunsOnAConnectionWithTheCensusSessionSettings() async throws {
        try await Backend.postgres.withOpenDatabase { database in
            let postgres = try #require(database as? PostgresCensusDatabase)
            let setting = NIOLockedValueBox<String?>(nil)
            await postgres.withWriterSession { writer in
                guard let connection = writer.connection else { return }
                do {
                    let rows = try await connection.query("SELECT current_setting('backend_flush_after')", logger: Logger(label: "test"))
                    for try await value in rows.decode(String.self) { setting.withLockedValue { $0 = value } }
                } catch {}
            }
            #expect(setting.withLockedValue { $0 } == "256kB")
            #expect(postgres.writerConnections.idleCount == 1)
        }
    }
}
