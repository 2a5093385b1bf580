@testable import Census
import Foundation
import Hummingbird
import HummingbirdTesting
import NIOConcurrencyHelpers
import NIOCore
import NIOEmbedded
import NIOHTTPTypesHTTP1
import NIOPosix
import Testing

/// The ping fast path below the router (docs/performance.md): where it sits in a connection's
/// pipeline, what it answers on a live server, and the event-loop group commit behind it.
@Suite struct PingFastPathTests {
    @Test func theInstallerPutsTheHandlerBeforeTheConversionToHTTPTypesAndStepsOut() async throws {
        try await Backend.sqlite.withStore { store in
            let channel = EmbeddedChannel()
            let pipeline = channel.pipeline.syncOperations
            try pipeline.addHandler(HTTP1ToHTTPServerCodec(secure: false))
            try pipeline.addHandler(PingIngestInstaller(server: CensusServer(store: store)))
            _ = try pipeline.context(handlerType: PingIngestHandler.self)
            // The pipeline's description lists its handlers from head to tail.
            let order = channel.pipeline.debugDescription
            let handler = try #require(order.range(of: "PingIngestHandler"))
            let conversion = try #require(order.range(of: "HTTP1ToHTTPServerCodec"))
            #expect(handler.lowerBound < conversion.lowerBound)
            #expect(throws: (any Error).self) { try pipeline.context(handlerType: PingIngestInstaller.self) }
            _ = try channel.finish()
        }
    }

    @Test func aLiveServerAnswersPingsBelowTheRouterAndEverythingElseThroughIt() async throws {
        try await Backend.sqlite.withStore { store in
            let server = CensusServer(store: store)
            try await server.application(host: "127.0.0.1", port: 0).test(.live) { client in
                let uri = "/cgi-bin/gn?" + PingQueries.valid(pingID: "fast-1")
                for expected in ["stored\n", "duplicate\n"] {
                    try await client.execute(uri: uri, method: .get) { response in
                        #expect(response.status == .ok)
                        #expect(String(buffer: response.body) == expected)
                        #expect(response.headers[.contentType] == "text/plain; charset=utf-8")
                    }
                }
                let broken = "/cgi-bin/gn?" + PingQueries.valid(pingID: "fast-2").replacingOccurrences(of: "cln,10", with: "cln,ten")
                try await client.execute(uri: broken, method: .get) { response in
                    #expect(response.status == .badRequest)
                    #expect(String(buffer: response.body) == "c27 is \"ten\", not a whole number of seconds\n")
                }
                try await client.execute(uri: "/healthz", method: .get) { response in
                    #expect(String(buffer: response.body) == "ok\n")
                }
                try await client.execute(uri: "/cgi-bin/gn?" + PingQueries.valid(pingID: "fast-3"), method: .get,
                                         headers: [.connection: "close"]) { response in
                    // Answered, then closed (the test client keeps the connection header to itself).
                    #expect(response.status == .ok)
                }
            }
            #expect(try await store.counts() == (2, 1))
            #expect(try await store.rejectReasons() == ["c27 is \"ten\", not a whole number of seconds"])
            #expect(server.sinceStart.stored == 2)
            #expect(server.sinceStart.duplicates == 1)
            #expect(server.sinceStart.rejected == 1)
        }
    }

    @Test func completionsRunOnTheirEventLoopOnceTheBatchIsCommitted() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 2)
        let committed = NIOLockedValueBox<[[Int]]>([])
        let writer = GroupCommit<Int, Int> { batch in
            committed.withLockedValue { $0.append(batch) }
            return batch.map { $0 * 10 }
        }
        let loops = [group.next(), group.next()]
        let results = try await withThrowingTaskGroup(of: (Int, Int, Bool).self) { tasks in
            for item in 0..<40 {
                let loop = loops[item % 2]
                tasks.addTask {
                    try await withCheckedThrowingContinuation { continuation in
                        writer.submit(item, on: loop) { result in
                            continuation.resume(with: result.map { (item, $0, loop.inEventLoop) })
                        }
                    }
                }
            }
            return try await tasks.reduce(into: []) { $0.append($1) }
        }
        #expect(results.count == 40)
        #expect(results.allSatisfy { $0.1 == $0.0 * 10 && $0.2 })
        #expect(committed.withLockedValue { $0 }.flatMap { $0 }.sorted() == Array(0..<40))
        #expect(writer.batches == committed.withLockedValue { $0 }.count)
        try await group.shutdownGracefully()
    }

    @Test func aFailedCommitFailsEveryItemOfItsBatchAndTheWriterGoesOn() async throws {
        struct DiskFull: Error {}
        let failNext = NIOLockedValueBox(true)
        let writer = GroupCommit<Int, Int> { batch in
            if failNext.withLockedValue({ failing in defer { failing = false }; return failing }) { throw DiskFull() }
            return batch
        }
        await #expect(throws: DiskFull.self) { try await writer.write(1) }
        #expect(try await writer.write(2) == 2)
    }

    @Test func aCommitReturningTooFewOutcomesFailsItsItemsInsteadOfLeavingThemWaiting() async throws {
        let writer = GroupCommit<Int, Int> { batch in Array(batch.dropLast()) }
        await #expect(throws: (any Error).self) { try await writer.write(1) }
    }
}
