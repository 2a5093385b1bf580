import Foundation
import Logging

/// Where the census keeps its data: a SQLite file (embedded, the default) or a PostgreSQL URL.
public enum DatabaseLocation: Sendable, Equatable, CustomStringConvertible {
    /// A SQLite file.
    case sqlite(path: String)
    /// A PostgreSQL server, `postgres://user:password@host:port/database`.
    case postgres(url: String)

    /// `postgres://…` / `postgresql://…` selects PostgreSQL; anything else is a SQLite file path.
    public init(argument: String) {
        if argument.hasPrefix("postgres://") || argument.hasPrefix("postgresql://") {
            self = .postgres(url: argument)
        } else {
            self = .sqlite(path: argument)
        }
    }

    /// The path or URL, with any password hidden.
    public var description: String {
        switch self {
        case .sqlite(let path): "sqlite:\(path)"
        case .postgres(let url):
            url.replacingOccurrences(of: #"://([^:/@]+):[^@]*@"#, with: "://$1:***@", options: .regularExpression)
        }
    }

    /// Opens the database.
    package func open(logger: Logger) async throws -> any CensusDatabase {
        switch self {
        case .sqlite(let path):
            return try await SQLiteCensusDatabase.open(path: path, logger: logger)
        case .postgres(let url):
            let database = try PostgresCensusDatabase(url: url, logger: logger)
            await database.waitUntilRunning()
            do {
                try await database.probe()
            } catch {
                await database.close()
                throw CensusError.databaseUnreachable(self, attempts: PostgresCensusDatabase.probeAttempts, reason: "\(error)")
            }
            return database
        }
    }
}

extension DatabaseLocation {
    /// Opens the database, migrates it, runs `body` with a store over it (telling the time by
    /// `clock`), and closes it.
    public func withStore<Result>(
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
