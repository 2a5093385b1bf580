@testable import CensusHTTP
@testable import CensusPostgres
@testable import CensusSQLite
@testable import CensusStore
@testable import MeterTables
import Dispatch
import Logging
import NIOCore
import NIOPosix
import Testing

/// Where group-commit writers run (``GroupCommit/StartWriter``, ``EventLoopTaskExecutor``): the
/// PostgreSQL backend keeps its writers on the event loop of its connections (census-decisions.md S14).
@Suite struct WriterPlacementTests {
    /// Whether the calling thread is an event loop's thread.
    static var onAnEventLoop: Bool { MultiThreadedEventLoopGroup.currentEventLoop != nil }

    @Test func aTaskStartedOnAnEventLoopStaysOnItAcrossSuspensions() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let loop = group.next()
        let executor = EventLoopTaskExecutor(eventLoop: loop)
        let (before, after) = await withCheckedContinuation { (ran: CheckedContinuation<(Bool, Bool), Never>) in
            executor.startTask {
                let before = loop.inEventLoop
                // Resumed from another thread: the task must come back to its loop.
                await withCheckedContinuation { resumed in DispatchQueue.global().async { resumed.resume() } }
                ran.resume(returning: (before, loop.inEventLoop))
            }
        }
        try await group.shutdownGracefully()
        #expect(before)
        #expect(after)
    }

    @Test func aGroupCommitStartsItsWritersWhereItIsTold() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let loop = group.next()
        let executor = EventLoopTaskExecutor(eventLoop: loop)
        let writer = GroupCommit<Int, Bool>(startWriter: { executor.startTask($0) }) { batch in
            batch.map { _ in loop.inEventLoop }
        }
        let committedOnTheLoop = try await writer.write(1)
        try await group.shutdownGracefully()
        #expect(committedOnTheLoop)
    }

    @Test func postgreSQLWritersRunOnAnEventLoopAndSQLiteWritersDoNot() async throws {
        // No server is needed: the client connects only when a statement asks for a connection.
        let postgres = try PostgresCensusDatabase(url: "postgres://nobody@127.0.0.1:1/none", logger: Logger(label: "test"))
        let postgresOnLoop = await withCheckedContinuation { ran in
            postgres.startWriter { ran.resume(returning: Self.onAnEventLoop) }
        }
        await postgres.close()
        let sqliteOnLoop = try await Backend.sqlite.withOpenDatabase { sqlite in
            await withCheckedContinuation { ran in
                sqlite.startWriter { ran.resume(returning: Self.onAnEventLoop) }
            }
        }
        #expect(postgresOnLoop)
        #expect(!sqliteOnLoop)
    }
}
