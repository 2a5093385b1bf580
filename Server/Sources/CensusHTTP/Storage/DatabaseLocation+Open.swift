#if PostgreSQL
import CensusPostgres
#endif
import CensusSQLite
package import CensusStore
import Foundation
package import Logging

/// Opening the place, on the engine it names: the one place that knows both engines.
extension DatabaseLocation {
    /// Opens the database.
    package func open(logger: Logger) async throws -> any CensusDatabase {
        switch self {
        case .sqlite(let path):
            return try await SQLiteCensusDatabase.open(path: path, logger: logger)
        case .postgres(let url):
            #if PostgreSQL
            let database = try PostgresCensusDatabase(url: url, logger: logger)
            await database.waitUntilRunning()
            do {
                try await database.probe()
            } catch {
                await database.close()
                throw CensusError.databaseUnreachable(self, attempts: PostgresCensusDatabase.probeAttempts, reason: "\(error)")
            }
            return database
            #else
            _ = url
            throw CensusError.notBuiltIn(feature: "PostgreSQL", trait: "PostgreSQL")
            #endif
        }
    }
}

extension DatabaseLocation {
    /// Opens the database, migrates it, runs `body` with a store over it (telling the time by
    /// `clock`), and closes it.
    package func withStore<Result>(
        logger: Logger = Logger(label: "Census"), clock: any CensusClock = SystemCensusClock(),
        _ body: (PingStore) async throws -> Result
    ) async throws -> Result {
        let database = try await open(logger: logger)
        let store = PingStore(database: database, clock: clock)
        do {
            try await store.migrate()
            let result = try await body(store)
            await database.close()
            return result
        } catch {
            await database.close()
            throw error
        }
    }
}
