@testable import CensusHTTP
@testable import CensusPostgres
@testable import CensusSQLite
@testable import CensusStore
@testable import MeterTables
import Logging
import SQLKit
import Testing

/// The census's PostgreSQL sessions start with its own settings (census-decisions.md S13).
@Suite(.enabled(if: Backend.postgresURL != nil, "needs APPMETER_TEST_POSTGRES_URL"))
struct PostgresSessionSettingsTests {
    @Test func everySessionFlushesWhatItEvictsAsItGoes() async throws {
        let setting = try await Backend.postgres.withOpenDatabase { database in
            try await database.withSQL { sql in
                try await sql.raw("SELECT current_setting('backend_flush_after') AS value").first(decodingColumn: "value", as: String.self)
            }
        }
        #expect(setting == "256kB")
    }
}
