import CensusStore
import Logging
import NIOConcurrencyHelpers
import NIOPosix
import SQLiteNIO

/// Copies the embedded census's write-ahead log into the database file on a connection and a
/// thread of its own, so that the writer does not wait for most checkpoints.
///
/// SQLite's automatic checkpoint runs on the connection that commits. Under load, one commit in
/// a few then also copied the log and waited for two `fsync`s, while every request queued behind
/// it: that set the p99 (census-decisions.md S10; figures in docs/performance.md). Here the writer's automatic
/// checkpoint is off, and this checkpointer copies the log in the background. Its checkpoints are
/// `PASSIVE`: it never waits for the writer, nor the writer for it (no busy handler is involved).
///
/// The log starts again from its beginning only when a write finds it wholly copied, which a
/// background copy racing a busy writer rarely leaves. So once the log has passed
/// `restartFrames`, the writer copies what is left itself (``catchUpIfDue(on:)``) and its next write
/// starts the log again: the file stays near `restartFrames` pages. Before it asks, it flushes
/// the pages it copied (``DatabaseFileFlusher``), so that the writer's copy only waits for its own.
final class SQLiteCheckpointer: Sendable {
    /// Log pages past which the writer finishes a copy itself: 32,000 pages (128 MB). However
    /// little is left, the writer's copy waits for three syncs (the log, the file, the new log's
    /// header) while requests queue, so the rarer the better; a census that keeps up starts its
    /// log again by itself whenever a write finds it all copied (census-decisions.md S10; what
    /// smaller thresholds cost, and the file's size under load, in docs/performance.md).
    static let defaultRestartFrames = 32_000
    /// The pause between background copies.
    static let defaultInterval: Duration = .milliseconds(50)

    private let connection: SQLiteConnection
    private let thread: NIOThreadPool
    private let flusher: DatabaseFileFlusher?
    private let restartFrames: Int
    private let logger: Logger
    private let catchUp = NIOLockedValueBox(false)
    /// The log pages copied as of the last flush, and the number of flushes (for tests).
    private let flushed = NIOLockedValueBox((copiedPages: 0, flushes: 0))
    private let loop = NIOLockedValueBox<Task<Void, Never>?>(nil)

    private init(
        connection: SQLiteConnection, thread: NIOThreadPool, flusher: DatabaseFileFlusher?, restartFrames: Int,
        logger: Logger
    ) {
        self.connection = connection
        self.thread = thread
        self.flusher = flusher
        self.restartFrames = restartFrames
        self.logger = logger
    }

    /// Opens a second connection to the database at `path` and copies every `interval`.
    static func start(
        path: String, restartFrames: Int = defaultRestartFrames, interval: Duration = defaultInterval, logger: Logger
    ) async throws -> SQLiteCheckpointer {
        let (connection, thread) = try await SQLiteConnection.openOnOwnThread(
            path: path,
            pragmas: [
                // NORMAL: a checkpoint syncs the log before copying, and a whole copy the file after.
                "PRAGMA synchronous=NORMAL",
                // No busy handler (sqlite-nio's default retries at once, forever).
                "PRAGMA busy_timeout=0",
            ],
            logger: logger)
        let flusher = DatabaseFileFlusher(path: path)
        if flusher == nil {
            logger.warning("database file not opened for flushing; the writer's copies flush it", metadata: ["path": "\(path)"])
        }
        let checkpointer = SQLiteCheckpointer(
            connection: connection, thread: thread, flusher: flusher, restartFrames: restartFrames, logger: logger)
        checkpointer.loop.withLockedValue { $0 = Task { await checkpointer.run(every: interval) } }
        return checkpointer
    }

    /// Run by the writer after each commit: once the log is long, copies what is left of it on
    /// the writer's own connection, so that the writer's next write starts the log again. A
    /// failure is logged, not thrown: the commit before it stands.
    func catchUpIfDue(on writer: SQLiteConnection) async {
        let due = catchUp.withLockedValue { due in
            defer { due = false }
            return due
        }
        guard due else { return }
        do {
            _ = try await writer.query("PRAGMA wal_checkpoint(PASSIVE)")
        } catch {
            logger.warning("checkpoint after a commit failed", metadata: ["error": "\(error)"])
        }
    }

    /// One background copy; past the restart size (or on failure) the writer is asked to finish it.
    func copy() async {
        do {
            let rows = try await connection.query("PRAGMA wal_checkpoint(PASSIVE)")
            if case .integer(let copied)? = rows.first?.column("checkpointed") {
                try await flushDatabaseFile(copiedPages: copied)
            }
            if case .integer(let frames)? = rows.first?.column("log"), frames >= restartFrames {
                catchUp.withLockedValue { $0 = true }
            }
        } catch is CancellationError where Task.isCancelled {
            // Stopped (the census is closing) in the middle of a copy: nothing went wrong.
        } catch {
            // The writer copies at its next commit instead, as SQLite's automatic checkpoint would.
            logger.warning("background checkpoint failed", metadata: ["error": "\(error)"])
            catchUp.withLockedValue { $0 = true }
        }
    }

    /// How many times a background copy flushed the database file.
    var flushes: Int { flushed.withLockedValue { $0.flushes } }

    /// Flushes the database file if this copy wrote pages into it (`copiedPages`, the log's pages
    /// copied so far, changed), on the checkpointer's thread: the call blocks.
    private func flushDatabaseFile(copiedPages: Int) async throws {
        guard let flusher, copiedPages > 0, flushed.withLockedValue({ $0.copiedPages }) != copiedPages else { return }
        if let failure = try await thread.runIfActive({ flusher.flush() }) {
            logger.warning("flushing the database file failed", metadata: ["errno": "\(failure)"])
            return
        }
        flushed.withLockedValue { $0 = (copiedPages, $0.flushes + 1) }
    }

    private func run(every interval: Duration) async {
        while !Task.isCancelled {
            // A new log holds nothing to copy: the first copy comes after one interval.
            try? await Task.sleep(for: interval)
            guard !Task.isCancelled else { return }
            await copy()
        }
    }

    /// Stops copying and closes the connection.
    func stop() async {
        let task = loop.withLockedValue { $0 }
        task?.cancel()
        await task?.value
        try? await connection.close()
        try? await thread.shutdownGracefully()
    }
}
