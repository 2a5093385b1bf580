@testable import CensusHTTP
@testable import CensusPostgres
@testable import CensusSQLite
@testable import CensusStore
@testable import MeterTables
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
            try pipeline.addHandler(PingIngestInstaller(intake: CensusServer(store: store).intake))
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
            }
            #expect(try await store.counts() == (1, 1))
            #expect(try await store.rejectReasons() == ["c27 is \"ten\", not a whole number of seconds"])
            #expect(server.sinceStart.stored == 1)
            #expect(server.sinceStart.duplicates == 1)
            #expect(server.sinceStart.rejected == 1)
        }
    }

    /// The test client keeps the connection header to itself: this one reads the raw bytes.
    @Test func aPingAskingToCloseIsAnsweredThenTheConnectionClosed() async throws {
        try await Backend.sqlite.withCensus { census in
            let request = "GET /cgi-bin/gn?\(PingQueries.valid(pingID: "close-1")) HTTP/1.1\r\nHost: census\r\nConnection: close\r\n\r\n"
            let received = NIOLockedValueBox(ByteBuffer())
            let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(ByteCollector(received)) }
                }
                .connect(host: census.host, port: census.port).get()
            let closedByTheTest = NIOLockedValueBox(false)
            let deadline = channel.eventLoop.scheduleTask(in: .seconds(10)) {
                closedByTheTest.withLockedValue { $0 = true }
                channel.close(promise: nil)
            }
            try await channel.writeAndFlush(ByteBuffer(string: request))
            try await channel.closeFuture.get()
            deadline.cancel()
            let answer = String(buffer: received.withLockedValue { $0 })
            #expect(!closedByTheTest.withLockedValue { $0 }, "the census left the connection open")
            #expect(answer.hasPrefix("HTTP/1.1 200 OK\r\n"))
            #expect(answer.lowercased().contains("\r\nconnection: close\r\n"))
            #expect(answer.hasSuffix("\r\n\r\nstored\n"))
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

    @Test func withTwoWritersASecondBatchIsCommittedWhileTheFirstWaitsAndNoThird() async throws {
        let gate = Gate()
        let inFlight = NIOLockedValueBox((now: 0, most: 0))
        let (started, start) = AsyncStream.makeStream(of: [Int]?.self)
        let writer = GroupCommit<Int, Int>(writers: 2) { batch in
            inFlight.withLockedValue { $0.now += 1; $0.most = max($0.most, $0.now) }
            start.yield(batch)
            await gate.wait()
            inFlight.withLockedValue { $0.now -= 1 }
            return batch.map { $0 * 10 }
        }
        let outcomes = NIOLockedValueBox<[Int: Int]>([:])
        let (finished, finish) = AsyncStream.makeStream(of: Void.self)
        let record: @Sendable (Int) -> GroupCommit<Int, Int>.Completion = { item in
            { result in
                outcomes.withLockedValue { $0[item] = try? result.get() }
                finish.yield()
            }
        }
        // A batch that never starts must fail the test, not hang it: a timer sends nil (late
        // enough that a busy machine running the other suites beside this one does not trip it).
        let timer = Task {
            try? await Task.sleep(for: .seconds(30))
            start.yield(nil)
        }
        var batches = started.makeAsyncIterator()
        writer.submit(0, completion: record(0))
        let first = await batches.next()
        writer.submit(1, completion: record(1))
        let second = await batches.next()
        // Both writers are busy: these wait, and go together once a writer is free.
        for item in 2...4 { writer.submit(item, completion: record(item)) }
        #expect(inFlight.withLockedValue { $0.now } == 2)
        gate.open()
        var done = finished.makeAsyncIterator()
        for _ in 0..<5 { await done.next() }
        let third = await batches.next()
        timer.cancel()
        #expect([first, second, third] == [[0], [1], [2, 3, 4]])
        #expect(inFlight.withLockedValue { $0.most } == 2)
        #expect(outcomes.withLockedValue { $0 } == [0: 0, 1: 10, 2: 20, 3: 30, 4: 40])
    }

    @Test func aSecondWriterStartsOnlyOnceEnoughItemsWait() async throws {
        let gate = Gate()
        let (started, start) = AsyncStream.makeStream(of: [Int]?.self)
        let writer = GroupCommit<Int, Int>(writers: 2, waitingForAnotherWriter: 3) { batch in
            start.yield(batch)
            await gate.wait()
            return batch
        }
        let (finished, finish) = AsyncStream.makeStream(of: Void.self)
        let timer = Task {
            try? await Task.sleep(for: .seconds(30))
            start.yield(nil)
        }
        var batches = started.makeAsyncIterator()
        // The first writer starts for one item, whatever the threshold.
        writer.submit(0) { _ in finish.yield() }
        let first = await batches.next()
        for item in 1...2 {
            writer.submit(item) { _ in finish.yield() }
            #expect(writer.writersRunning == 1, "a second writer for \(item) waiting item(s)")
        }
        writer.submit(3) { _ in finish.yield() }
        #expect(writer.writersRunning == 2)
        let second = await batches.next()
        gate.open()
        var done = finished.makeAsyncIterator()
        for _ in 0..<4 { await done.next() }
        timer.cancel()
        #expect([first, second] == [[0], [1, 2, 3]])
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
        // A completion that never comes must fail the test, not hang it: a timer answers nil.
        let (answers, answer) = AsyncStream.makeStream(of: Result<Int, any Error>?.self)
        writer.submit(1) { answer.yield($0) }
        let timer = Task {
            try? await Task.sleep(for: .seconds(10))
            answer.yield(nil)
        }
        var iterator = answers.makeAsyncIterator()
        let first = await iterator.next()
        timer.cancel()
        guard case .failure? = first ?? nil else {
            Issue.record("the item was not failed: \(String(describing: first))")
            return
        }
    }
}

/// Collects every byte a connection receives.
private final class ByteCollector: ChannelInboundHandler, Sendable {
    typealias InboundIn = ByteBuffer
    private let received: NIOLockedValueBox<ByteBuffer>

    init(_ received: NIOLockedValueBox<ByteBuffer>) {
        self.received = received
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var bytes = unwrapInboundIn(data)
        received.withLockedValue { _ = $0.writeBuffer(&bytes) }
    }
}
