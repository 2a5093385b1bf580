import CensusStore
import Logging
import NIOPosix
import SQLiteNIO

extension SQLiteConnection {
    /// Opens the SQLite file at `path` on a thread of its own and runs `pragmas` on it; closes both
    /// if any of them fails.
    ///
    /// A thread of its own, because sqlite-nio's shared pool would run consecutive statements of
    /// one connection on whichever of its threads is free: a wake-up of another thread and a cold
    /// cache per group commit.
    static func openOnOwnThread(
        path: String, pragmas: [String], logger: Logger
    ) async throws -> (connection: SQLiteConnection, thread: NIOThreadPool) {
        let thread = NIOThreadPool(numberOfThreads: 1)
        thread.start()
        var opened: SQLiteConnection?
        do {
            let connection = try await SQLiteConnection.open(
                storage: .file(path: path), threadPool: thread, logger: logger, on: MultiThreadedEventLoopGroup.singleton.any())
            opened = connection
            for pragma in pragmas { _ = try await connection.query(pragma) }
            return (connection, thread)
        } catch {
            try? await opened?.close()
            try? await thread.shutdownGracefully()
            throw error
        }
    }
}
