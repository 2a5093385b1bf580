@testable import CensusHTTP
@testable import CensusPostgres
@testable import CensusSQLite
@testable import CensusStore
@testable import MeterTables
import InMemoryLogging
import Logging
import SQLKit
import Testing

/// `meter serve` on PostgreSQL starts without a warning: it sent its first statement before the
/// client's pool ran, and postgres-nio warned about it at two starts in three.
@Suite(.enabled(if: Backend.postgresURL != nil, "needs APPMETER_TEST_POSTGRES_URL"))
struct PostgresStartupTests {
    @Test func openingAndMigratingLogsNoWarning() async throws {
        try await Backend.postgres.withFreshDatabase { location in
            for _ in 0..<10 {
                let log = InMemoryLogHandler()
                let database = try await location.open(logger: Logger(label: "test") { _ in log })
                try await PingStore(database: database).migrate()
                await database.close()
                #expect(log.entries.filter { $0.level >= .warning }.map(\.message.description) == [])
            }
        }
    }

    /// Servers starting together against a new database each migrate it, one after the other:
    /// PostgreSQL's `IF NOT EXISTS` alone let two of them create one table at once and fail.
    @Test func serversStartingTogetherAllMigrate() async throws {
        for _ in 0..<3 {
            try await Backend.postgres.withFreshDatabase { location in
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for _ in 0..<4 {
                        group.addTask { try await location.withStore(logger: Logger(label: "test")) { _ in } }
                    }
                    try await group.waitForAll()
                }
                let versions = try await location.withStore(logger: Logger(label: "test")) { store in
                    try await store.database.withSQL { db in
                        try await db.select().column("version").from("census_migrations").orderBy("version").all()
                            .map { try $0.decode(column: "version", as: Int.self) }
                    }
                }
                #expect(versions == Array(1...Schema.migrations.count))
            }
        }
    }
}
