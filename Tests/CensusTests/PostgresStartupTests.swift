@testable import Census
import InMemoryLogging
import Logging
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
}
