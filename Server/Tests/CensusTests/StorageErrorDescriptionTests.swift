@testable import CensusHTTP
@testable import CensusPostgres
@testable import CensusSQLite
@testable import CensusStore
@testable import MeterTables
import Logging
import SQLKit
import Testing

/// A storage failure's log line says PostgreSQL's cause, not only postgres-nio's generic text.
@Suite(.enabled(if: Backend.postgresURL != nil, "needs APPMETER_TEST_POSTGRES_URL"))
struct StorageErrorDescriptionTests {
    @Test func aPostgreSQLErrorIsDescribedByItsStateAndQuotedMessage() async throws {
        let error = try await Backend.postgres.withOpenDatabase { database in
            await #expect(throws: (any Error).self) {
                try await database.withSQL { try await $0.raw("SELECT 1/0").run() }
            }
        }
        #expect(error.map(storageErrorDescription) == #"PostgreSQL 22012: "division by zero""#)
    }
}
