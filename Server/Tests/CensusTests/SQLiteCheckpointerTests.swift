@testable import CensusHTTP
@testable import CensusPostgres
@testable import CensusSQLite
@testable import CensusStore
@testable import MeterTables
import Foundation
import Logging
import SQLiteNIO
import Testing
import SQLKit

/// The embedded census copies its write-ahead log in the background; the log must still start
/// again from its beginning, or its file would grow with every ping ever written.
@Suite struct SQLiteCheckpointerTests {
    /// A batch of pings about 100 log pages long (each carries a 1.5 KB raw query).
    private static func batch(_ number: Int) throws -> [IncomingPing] {
        try (0..<250).map { index in
            let query = PingQueries.valid(pingID: "p\(number)-\(index)") + "&pad=" + String(repeating: "x", count: 1_500)
            return try PingValidator.validate(query: Substring(query), uriLength: query.utf8.count).get()
        }
    }

    private static func withDatabase(
        restartFrames: Int, _ body: (SQLiteCensusDatabase, PingStore, String) async throws -> Void
    ) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("checkpointer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("census.sqlite").path
        // An hour between background copies: the test runs each copy itself.
        let database = try await SQLiteCensusDatabase.open(
            path: path, logger: Logger(label: "test"), restartFrames: restartFrames, checkpointInterval: .seconds(3_600))
        let store = PingStore(database: database)
        do {
            try await store.migrate()
            try await body(database, store, path)
        } catch {
            await database.close()
            throw error
        }
        await database.close()
    }

    private static func logBytes(at path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? NSNumber)?.intValue ?? 0
    }

    /// Under load the writer commits while a background copy runs, so the copy never finds the
    /// log finished and the log cannot start again by itself. A reader holding an old snapshot
    /// does the same to the copy here, deterministically: the copy stops at the reader's snapshot.
    @Test func aLogTheBackgroundCannotFinishStartsAgainOnceTheWriterCopiesTheRest() async throws {
        try await Self.withDatabase(restartFrames: 150) { database, store, path in
            let reader = try await SQLiteConnection.open(storage: .file(path: path), logger: Logger(label: "reader"))
            defer { _ = reader.close() }
            var written = 0
            for cycle in 0..<8 {
                written += try await store.insert(try Self.batch(cycle * 3), receivedAt: 1).count
                _ = try await reader.query("BEGIN")
                _ = try await reader.query("SELECT COUNT(*) FROM census_pings")
                written += try await store.insert(try Self.batch(cycle * 3 + 1), receivedAt: 1).count
                await database.checkpointer.copy()
                _ = try await reader.query("COMMIT")
                written += try await store.insert(try Self.batch(cycle * 3 + 2), receivedAt: 1).count
            }
            #expect(written == 8 * 3 * 250)
            // 24 batches of about 100 pages would make a log of some 10 MB if it never started
            // again; the writer's copies keep it to a few batches.
            let bytes = try Self.logBytes(at: path)
            #expect(bytes < 2_500_000, "log file: \(bytes) bytes")
            let stored = try await database.withSQL { db in
                try await db.raw("SELECT COUNT(*) AS n FROM census_pings").first(decoding: CountRow.self)?.n
            }
            #expect(stored == written)
        }
    }

    /// SQLite syncs the database file only when a copy finishes the whole log; the writer's copy
    /// then waited for every page the background had copied before it. The background flushes
    /// what it copied itself, once per copy that wrote pages.
    @Test func aBackgroundCopyFlushesThePagesItCopied() async throws {
        try await Self.withDatabase(restartFrames: 1_000_000) { database, store, _ in
            let checkpointer = database.checkpointer
            #expect(checkpointer.flushes == 0)
            _ = try await store.insert(try Self.batch(0), receivedAt: 1)
            await checkpointer.copy()
            #expect(checkpointer.flushes == 1)
            await checkpointer.copy()
            #expect(checkpointer.flushes == 1, "nothing copied, nothing to flush")
            _ = try await store.insert(try Self.batch(1), receivedAt: 1)
            await checkpointer.copy()
            #expect(checkpointer.flushes == 2)
        }
    }

    @Test func aFlusherOpensOnlyAFileThatExists() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("flusher-\(UUID().uuidString)").path
        #expect(DatabaseFileFlusher(path: path) == nil)
        try Data("page".utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let flusher = try #require(DatabaseFileFlusher(path: path))
        #expect(flusher.flush() == nil)
    }

    private struct CountRow: Decodable { let n: Int }
}
