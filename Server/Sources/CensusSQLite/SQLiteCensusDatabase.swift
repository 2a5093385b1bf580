package import CensusStore
package import Logging
import NIOPosix
import SQLKit
import SQLiteKit

/// SQLite through sqlite-nio: one writing connection on a thread of its own, which serialises
/// statements (`SQLiteConnection.openOnOwnThread` says why), and a ``SQLiteCheckpointer``.
package final class SQLiteCensusDatabase: CensusDatabase {
    package let concurrentWriters = 1
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
    package static func open(
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

    package func withConnection<Result: Sendable>(_ body: @Sendable (CensusSQL) async throws -> Result) async throws -> Result {
        let result = try await body(CensusSQL(connection.sql(), engine: SQLiteDialect()))
        await checkpointer.catchUpIfDue(on: connection)
        return result
    }

    /// Every batch is written on the one connection.
    package var writer: SQLiteBatchWriter { SQLiteBatchWriter(database: self) }

    package func close() async {
        await checkpointer.stop()
        try? await connection.close()
        try? await thread.shutdownGracefully()
    }
}
