import Foundation
import Logging
import NIOPosix
import SQLKit
import SQLiteKit

/// A database the census stores pings in. Both backends speak SQL through SQLKit, so every query
/// in ``PingStore`` is written once.
public protocol CensusDatabase: Sendable {
    /// `sqlite` or `postgresql`.
    var backendName: String { get }
    /// How many inserts may usefully run at once: 1 for a single connection; more for a pool,
    /// where one batch is inserted while another waits for its commit.
    var concurrentWriters: Int { get }
    /// How many items must wait before a writer beyond the first starts
    /// (``GroupCommit/init(maxBatch:writers:waitingForAnotherWriter:session:startWriter:commit:)``).
    var waitingForAnotherWriter: Int { get }
    /// Runs `body` with a SQLKit database handle.
    func withSQL<Result: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> Result) async throws -> Result
    /// Releases connections.
    func close() async
    /// Inserts `pings` in one statement and returns the ids that were new (see
    /// ``PingStore/insert(_:receivedAt:)``); a backend may write them its own faster way.
    func insertPings(_ pings: [IncomingPing], receivedAt: Int64) async throws -> Set<String>
    /// Inserts refused requests in one statement; a backend may write them its own faster way.
    func insertRejects(_ rejects: [PingStore.NewReject], receivedAt: Int64) async throws
    /// Runs `batches`, a group-commit writer's consecutive inserts (``GroupCommit/Session``), with
    /// what the backend holds for all of them; it runs `batches` exactly once.
    func writerSession(_ batches: () async -> Void) async
    /// Starts a group-commit writer's task (``GroupCommit/StartWriter``) where its inserts run best.
    func startWriter(_ writer: @escaping @Sendable () async -> Void)
}

extension CensusDatabase {
    /// Another writer as soon as anything waits.
    public var waitingForAnotherWriter: Int { 1 }

    /// Nothing to hold: each insert runs on its own.
    public func writerSession(_ batches: () async -> Void) async {
        await batches()
    }

    /// On Swift's shared threads.
    public func startWriter(_ writer: @escaping @Sendable () async -> Void) {
        Task { await writer() }
    }

    /// The portable insert, through SQLKit.
    public func insertPings(_ pings: [IncomingPing], receivedAt: Int64) async throws -> Set<String> {
        try await withSQL { db in
            var insert = db.insert(into: "census_pings").columns(PingStore.pingColumns)
            for ping in pings { insert = insert.values(PingStore.values(of: ping, receivedAt: receivedAt)) }
            let rows = try await insert.ignoringConflicts(with: "ping_id").returning("ping_id").all()
            return Set(try rows.map { try $0.decode(column: "ping_id", as: String.self) })
        }
    }

    /// The portable insert of refused requests, through SQLKit.
    public func insertRejects(_ rejects: [PingStore.NewReject], receivedAt: Int64) async throws {
        try await withSQL { db in
            var insert = db.insert(into: "census_rejects").columns("reject_id", "received_at", "reason", "raw_request", "appid", "bytes")
            for reject in rejects {
                insert = insert.values(reject.id, receivedAt, reject.reason, reject.rawRequest, reject.appid, reject.bytes)
            }
            try await insert.run()
        }
    }
}

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
    public func open(logger: Logger) async throws -> any CensusDatabase {
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

/// SQLite through sqlite-nio: one writing connection on a thread of its own, which serialises
/// statements (`SQLiteConnection.openOnOwnThread` says why), and a ``SQLiteCheckpointer``.
final class SQLiteCensusDatabase: CensusDatabase {
    let backendName = "sqlite"
    let concurrentWriters = 1
    let connection: SQLiteConnection
    private let thread: NIOThreadPool
    let checkpointer: SQLiteCheckpointer

    private init(connection: SQLiteConnection, thread: NIOThreadPool, checkpointer: SQLiteCheckpointer) {
        self.connection = connection
        self.thread = thread
        self.checkpointer = checkpointer
    }

    /// Opens the file at `path`; `restartFrames` and `checkpointInterval` are those of its
    /// ``SQLiteCheckpointer`` (tests make them small).
    static func open(
        path: String, logger: Logger,
        restartFrames: Int = SQLiteCheckpointer.defaultRestartFrames,
        checkpointInterval: Duration = SQLiteCheckpointer.defaultInterval
    ) async throws -> SQLiteCensusDatabase {
        let (connection, thread) = try await SQLiteConnection.openOnOwnThread(
            path: path,
            pragmas: [
                // WAL lets reports read while pings are written; NORMAL syncs at checkpoints only.
                "PRAGMA journal_mode=WAL",
                "PRAGMA synchronous=NORMAL",
                "PRAGMA busy_timeout=5000",
                // The checkpointer copies the log in the background instead (SQLiteCheckpointer).
                "PRAGMA wal_autocheckpoint=0",
            ],
            logger: logger)
        do {
            let checkpointer = try await SQLiteCheckpointer.start(
                path: path, restartFrames: restartFrames, interval: checkpointInterval, logger: logger)
            return SQLiteCensusDatabase(connection: connection, thread: thread, checkpointer: checkpointer)
        } catch {
            try? await connection.close()
            try? await thread.shutdownGracefully()
            throw error
        }
    }

    func withSQL<Result: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> Result) async throws -> Result {
        let result = try await body(connection.sql())
        await checkpointer.catchUpIfDue(on: connection)
        return result
    }

    func close() async {
        await checkpointer.stop()
        try? await connection.close()
        try? await thread.shutdownGracefully()
    }
}

/// Census set-up failures.
public enum CensusError: Error, CustomStringConvertible {
    /// The `--database` URL could not be read.
    case badDatabaseURL(String)
    /// The database did not answer: where, how often it was tried, and the last reason.
    case databaseUnreachable(DatabaseLocation, attempts: Int, reason: String)

    public var description: String {
        switch self {
        case .badDatabaseURL(let url):
            "cannot read database URL \(DatabaseLocation(argument: url)); expected postgres://user:password@host:port/database"
        case .databaseUnreachable(let location, let attempts, let reason):
            "the database \(location) did not answer (\(attempts) attempts): \(reason)"
        }
    }
}
