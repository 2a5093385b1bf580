@testable import CensusHTTP
@testable import CensusPostgres
@testable import CensusSQLite
@testable import CensusStore
@testable import MeterTables
import Foundation
import SQLKit
import Testing

/// A database a newer census migrated is refused, not read or written with an older schema's
/// meaning (docs/census.md, "Backup, restore and upgrade").
@Suite struct SchemaVersionTests {
    @Test(arguments: Backend.available)
    func aDatabaseOfANewerCensusIsRefusedWithWhatToDo(_ backend: Backend) async throws {
        try await backend.withOpenDatabase { database in
            try await database.withSQL { try await Schema.migrate($0) }
            let known = Schema.migrations.map(\.version).max() ?? 0
            // What a newer census leaves behind: a migration this one does not know.
            try await database.withSQL { db in
                try await db.insert(into: "census_migrations").columns("version", "applied_at").values(known + 1, Int64(0)).run()
            }
            await #expect(throws: CensusError.self) { try await database.withSQL { try await Schema.migrate($0) } }
            do {
                try await database.withSQL { try await Schema.migrate($0) }
            } catch {
                #expect("\(error)".contains("version \(known + 1), newer than this census's \(known)"))
            }
        }
    }
}
