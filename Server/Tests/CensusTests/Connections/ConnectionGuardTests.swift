@testable import CensusHTTP
@testable import CensusPostgres
@testable import CensusSQLite
@testable import CensusStore
@testable import MeterTables
import Hummingbird
import NIOCore
import NIOEmbedded
import NIOHTTP1
import NIOHTTPTypesHTTP1
import Testing
import Foundation

/// ``ConnectionGuard`` in a pipeline shaped as Hummingbird's, on virtual time: what it closes,
/// when, and what it answers.
@Suite struct ConnectionGuardTests {
    static let timeouts = ConnectionTimeouts(header: .seconds(10), body: .seconds(30), idle: .seconds(60), write: .seconds(20))

    /// Answers each request with `200 ok` when it ends, or holds it until ``answer()``.
    final class Responder: ChannelInboundHandler, RemovableChannelHandler {
        typealias InboundIn = HTTPServerRequestPart
        typealias OutboundOut = HTTPServerResponsePart
        var holds = false
        private var held: ChannelHandlerContext?

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            guard case .end = unwrapInboundIn(data) else { return }
            if holds { held = context } else { answer(context) }
        }

        func answer() {
            // Taken first: answering may pass the next request on, which is held in turn.
            let context = held
            held = nil
            if let context { answer(context) }
        }

        private func answer(_ context: ChannelHandlerContext) {
            let head = HTTPResponseHead(version: .http1_1, status: .ok, headers: ["content-length": "2"])
            context.write(wrapOutboundOut(.head(head)), promise: nil)
            context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(string: "ok")))), promise: nil)
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        }
    }

    /// A connected channel with the HTTP/1 server pipeline, the guard and its observer.
    static func connection(table: ConnectionTable = ConnectionTable(limit: 100), responder: Responder = Responder(),
                           loop: EmbeddedEventLoop = EmbeddedEventLoop()) throws -> EmbeddedChannel {
        let channel = EmbeddedChannel(loop: loop)
        let pipeline = channel.pipeline.syncOperations
        try pipeline.configureHTTPServerPipeline(withPipeliningAssistance: false, withErrorHandling: false)
        try pipeline.addHandler(HTTP1ToHTTPServerCodec(secure: false))
        try pipeline.addHandler(ConnectionGuardInstaller(table: table, timeouts: timeouts))
        let codec = try pipeline.handler(type: HTTP1ToHTTPServerCodec.self)
        try pipeline.addHandler(responder, position: .before(codec))
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 9)).wait()
        return channel
    }

    /// Everything written to the socket so far, as text.
    static func written(_ channel: EmbeddedChannel) throws -> String {
        var text = ""
        while let part = try channel.readOutbound(as: IOData.self) {
            if case .byteBuffer(let buffer) = part { text += String(buffer: buffer) }
        }
        return text
    }

    static func send(_ channel: EmbeddedChannel, _ text: String) throws {
        try channel.writeInbound(ByteBuffer(string: text))
    }

    @Test func theInstallerPutsTheGuardFirstAndItsObserverInFrontOfThePingFastPath() throws {
        let channel = try Self.connection()
        let order = channel.pipeline.debugDescription
        let positions = try ["ConnectionGuard", "BackPressureHandler", "ByteToMessageHandler", "RequestPhaseObserver", "Responder",
                             "HTTP1ToHTTPServerCodec"]
            .map { try #require(order.range(of: $0)).lowerBound }
        #expect(positions == positions.sorted())
        #expect(!order.contains("ConnectionGuardInstaller"))
        _ = try? channel.finish()
    }

    @Test func halfAHeaderIsAnswered408AndClosedAfterTheHeaderTimeout() throws {
        let table = ConnectionTable(limit: 100)
        let channel = try Self.connection(table: table)
        try Self.send(channel, "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: ")
        channel.embeddedEventLoop.advanceTime(by: .seconds(9))
        #expect(channel.isActive)
        channel.embeddedEventLoop.advanceTime(by: .seconds(1))
        #expect(!channel.isActive)
        let answer = try Self.written(channel)
        #expect(answer.hasPrefix("HTTP/1.1 408 Request Timeout\r\n"))
        #expect(answer.hasSuffix("\r\n\r\nrequest head not received within 10 s\n"))
        #expect(table.counters.headerTimeouts == 1)
        #expect(table.counters.open == 0)
    }

    @Test func aConnectionThatSendsNothingIsClosedAfterTheHeaderTimeout() throws {
        let channel = try Self.connection()
        channel.embeddedEventLoop.advanceTime(by: .seconds(10))
        #expect(!channel.isActive)
    }

    @Test func aKeptAliveConnectionIsClosedSilentlyAfterTheIdleTimeoutAndNotBefore() throws {
        let table = ConnectionTable(limit: 100)
        let channel = try Self.connection(table: table)
        try Self.send(channel, "GET /a HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try Self.written(channel).hasPrefix("HTTP/1.1 200 OK"))
        channel.embeddedEventLoop.advanceTime(by: .seconds(59))
        #expect(channel.isActive)
        // Another request restarts the wait.
        try Self.send(channel, "GET /b HTTP/1.1\r\nHost: x\r\n\r\n")
        channel.embeddedEventLoop.advanceTime(by: .seconds(59))
        #expect(channel.isActive)
        channel.embeddedEventLoop.advanceTime(by: .seconds(1))
        #expect(!channel.isActive)
        #expect(try Self.written(channel).hasPrefix("HTTP/1.1 200 OK"))
        #expect(table.counters.idleTimeouts == 1)
    }

    @Test func theNextHeadHasTheHeaderTimeFromItsFirstByte() throws {
        let channel = try Self.connection()
        try Self.send(channel, "GET /a HTTP/1.1\r\nHost: x\r\n\r\n")
        channel.embeddedEventLoop.advanceTime(by: .seconds(30))
        try Self.send(channel, "GET /b HTTP/1.1\r\n")
        channel.embeddedEventLoop.advanceTime(by: .seconds(9))
        #expect(channel.isActive)
        channel.embeddedEventLoop.advanceTime(by: .seconds(1))
        #expect(!channel.isActive)
    }

    @Test func aBodyThatTricklesIsAnswered408AfterTheBodyTimeout() throws {
        let table = ConnectionTable(limit: 100)
        let channel = try Self.connection(table: table)
        try Self.send(channel, "POST /cgi-bin/gn/batch HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n")
        for _ in 0..<29 {
            try Self.send(channel, "x")
            channel.embeddedEventLoop.advanceTime(by: .seconds(1))
        }
        #expect(channel.isActive)
        channel.embeddedEventLoop.advanceTime(by: .seconds(1))
        #expect(!channel.isActive)
        #expect(try Self.written(channel).hasSuffix("request body not received within 30 s\n"))
        #expect(table.counters.bodyTimeouts == 1)
    }

    @Test func aRequestTheCensusIsStillAnsweringNeverTimesOut() throws {
        let responder = Responder()
        responder.holds = true
        let channel = try Self.connection(responder: responder)
        try Self.send(channel, "GET /report HTTP/1.1\r\nHost: x\r\n\r\n")
        channel.embeddedEventLoop.advanceTime(by: .seconds(600))
        #expect(channel.isActive)
        responder.answer()
        #expect(try Self.written(channel).hasPrefix("HTTP/1.1 200 OK"))
        channel.embeddedEventLoop.advanceTime(by: .seconds(60))
        #expect(!channel.isActive)
    }

    @Test func atTheCapANewConnectionClosesTheOldestOneOwedNoAnswer() throws {
        let table = ConnectionTable(limit: 2)
        let loop = EmbeddedEventLoop()
        let busy = Responder()
        busy.holds = true
        let owed = try Self.connection(table: table, responder: busy, loop: loop)
        try Self.send(owed, "GET /report HTTP/1.1\r\nHost: x\r\n\r\n")
        let slow = try Self.connection(table: table, loop: loop)
        try Self.send(slow, "GET / HTTP/1.1\r\nHo")
        let answering = Responder()
        answering.holds = true
        let newest = try Self.connection(table: table, responder: answering, loop: loop)
        loop.run()
        // The slow one made room; the one owed an answer stays.
        #expect(owed.isActive)
        #expect(!slow.isActive)
        #expect(newest.isActive)
        #expect(table.counters.evicted == 1)
        #expect(table.counters.open == 2)
        // With every other connection owed an answer, the newest is closed itself.
        try Self.send(newest, "GET /report HTTP/1.1\r\nHost: x\r\n\r\n")
        let refused = try Self.connection(table: table, loop: loop)
        loop.run()
        #expect(!refused.isActive)
        #expect(owed.isActive)
        #expect(newest.isActive)
        #expect(table.counters.refused == 1)
        for channel in [owed, newest] { _ = try? channel.finish() }
    }

    @Test func theTableStaysSmallAsConnectionsComeAndGo() throws {
        let table = ConnectionTable(limit: 3)
        let loop = EmbeddedEventLoop()
        for _ in 0..<2_000 {
            let channel = try Self.connection(table: table, loop: loop)
            _ = try? channel.finish()
        }
        #expect(table.counters.open == 0)
        #expect(table.counters.accepted == 2_000)
        #expect(table.counters.evicted == 0)
    }

    /// Makes `channel`'s answers wait above the high-water mark (`false`) or leave (`true`).
    static func setWritable(_ channel: EmbeddedChannel, _ writable: Bool) {
        channel.isWritable = writable
        channel.pipeline.fireChannelWritabilityChanged()
    }

    /// Counts the reads that reach the socket (the channel's head).
    final class ReadCounter: ChannelOutboundHandler {
        typealias OutboundIn = Any
        var reads = 0
        func read(context: ChannelHandlerContext) {
            reads += 1
            context.read()
        }
    }

    @Test func aClientThatDoesNotReadItsAnswersIsReadNoFurtherAndClosedAfterTheWriteTimeout() throws {
        let table = ConnectionTable(limit: 100)
        let channel = try Self.connection(table: table)
        let reads = ReadCounter()
        try channel.pipeline.syncOperations.addHandler(reads, position: .first)
        try Self.send(channel, "GET /a HTTP/1.1\r\nHost: x\r\n\r\n")
        Self.setWritable(channel, false)
        channel.read()
        #expect(reads.reads == 0)
        channel.embeddedEventLoop.advanceTime(by: .seconds(19))
        #expect(channel.isActive)
        channel.embeddedEventLoop.advanceTime(by: .seconds(1))
        #expect(!channel.isActive)
        #expect(table.counters.writeTimeouts == 1)
        #expect(!(try Self.written(channel)).contains("408"))
    }

    @Test func pipelinedRequestsWaitWhileTheAnswersWaitUnreadAndGoOnOnceTheyLeave() throws {
        let channel = try Self.connection()
        try Self.send(channel, "GET /a HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try Self.written(channel).hasPrefix("HTTP/1.1 200 OK"))
        Self.setWritable(channel, false)
        try Self.send(channel, String(repeating: "GET /b HTTP/1.1\r\nHost: x\r\n\r\n", count: 3))
        #expect(try Self.written(channel).isEmpty)
        Self.setWritable(channel, true)
        #expect(try Self.written(channel).components(separatedBy: "HTTP/1.1 200 OK").count == 4)
        _ = try? channel.finish()
    }

    @Test func pipelinedRequestsArePassedOnOneAtATimeAndTheSocketIsNotReadMeanwhile() throws {
        let responder = Responder()
        responder.holds = true
        let channel = try Self.connection(responder: responder)
        let reads = ReadCounter()
        try channel.pipeline.syncOperations.addHandler(reads, position: .first)
        try Self.send(channel, String(repeating: "GET /b HTTP/1.1\r\nHost: x\r\n\r\n", count: 3))
        channel.read()
        #expect(reads.reads == 0)
        for answered in 1...3 {
            responder.answer()
            #expect(try Self.written(channel).components(separatedBy: "HTTP/1.1 200 OK").count == 2, "answer \(answered)")
        }
        responder.answer()  // nothing more was asked
        #expect(try Self.written(channel).isEmpty)
        #expect(reads.reads == 1)
        _ = try? channel.finish()
    }

    @Test func whileARequestIsHeldTheBytesAfterItAreKeptUndecoded() throws {
        let responder = Responder()
        responder.holds = true
        let channel = try Self.connection(responder: responder)
        let requests = 500
        try Self.send(channel, String(repeating: "GET /b HTTP/1.1\r\nHost: x\r\n\r\n", count: requests))
        let guardHandler = try channel.pipeline.syncOperations.handler(type: ConnectionGuard.self)
        let observer = try channel.pipeline.syncOperations.handler(type: RequestPhaseObserver.self)
        // One slice's requests at most were decoded; the rest waits as bytes.
        #expect(observer.heldParts <= 2 * (ConnectionGuard.slice / 28))
        #expect(guardHandler.keptBytes == requests * 28 - ConnectionGuard.slice)
        for _ in 0..<requests { responder.answer() }
        #expect(try Self.written(channel).components(separatedBy: "HTTP/1.1 200 OK").count == requests + 1)
        #expect(observer.heldParts == 0)
        #expect(guardHandler.keptBytes == 0)
        _ = try? channel.finish()
    }

    @Test func aClientThatReadsAgainInTimeIsReadAgainAndKept() throws {
        let channel = try Self.connection()
        let reads = ReadCounter()
        try channel.pipeline.syncOperations.addHandler(reads, position: .first)
        try Self.send(channel, "GET /a HTTP/1.1\r\nHost: x\r\n\r\n")
        Self.setWritable(channel, false)
        channel.read()
        channel.embeddedEventLoop.advanceTime(by: .seconds(19))
        Self.setWritable(channel, true)
        #expect(reads.reads == 1)  // the read held back goes out now
        channel.embeddedEventLoop.advanceTime(by: .seconds(30))
        #expect(channel.isActive)
        _ = try? channel.finish()
    }

    @Test func atTheCapAConnectionOwedAnAnswerItDoesNotReadIsEvicted() throws {
        let table = ConnectionTable(limit: 1)
        let loop = EmbeddedEventLoop()
        let busy = Responder()
        busy.holds = true
        let unread = try Self.connection(table: table, responder: busy, loop: loop)
        try Self.send(unread, "GET /report HTTP/1.1\r\nHost: x\r\n\r\n")
        Self.setWritable(unread, false)
        let newest = try Self.connection(table: table, loop: loop)
        loop.run()
        #expect(!unread.isActive)
        #expect(newest.isActive)
        #expect(table.counters.evicted == 1)
        _ = try? newest.finish()
    }

    @Test func bodiesPastTheBudgetAreAnswered503AndClosedAndTheirBytesGivenBack() throws {
        let table = ConnectionTable(limit: 100, bodyBudget: 3_000)
        let loop = EmbeddedEventLoop()
        let held = Responder()
        held.holds = true
        // Its announced length is taken at its head, before a byte of it arrives.
        let first = try Self.connection(table: table, responder: held, loop: loop)
        try Self.send(first, "POST /cgi-bin/gn/trace HTTP/1.1\r\nHost: x\r\nContent-Length: 2000\r\n\r\n" + String(repeating: "a", count: 900))
        #expect(table.counters.bodyBytesHeld == 2_000)
        // Announcing more than is left: answered at its head, its body never read.
        let second = try Self.connection(table: table, loop: loop)
        _ = try? Self.send(second, "POST /cgi-bin/gn/trace HTTP/1.1\r\nHost: x\r\nContent-Length: 1200\r\n\r\n")
        loop.run()
        #expect(!second.isActive)
        let answer = try Self.written(second)
        #expect(answer.hasPrefix("HTTP/1.1 503 Service Unavailable\r\n"))
        #expect(answer.contains("retry-after: 30\r\n"))
        #expect(table.counters.shedForBodyBudget == 1)
        #expect(table.counters.bodyBytesHeld == 2_000)
        // A chunked body counts as it arrives.
        let chunked = try Self.connection(table: table, loop: loop)
        try Self.send(chunked, "POST /cgi-bin/gn/batch HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n")
        try Self.send(chunked, "258\r\n" + String(repeating: "d", count: 600) + "\r\n")
        #expect(table.counters.bodyBytesHeld == 2_600)
        // Closed inside this write: the decoder then reports the body it never finished.
        _ = try? Self.send(chunked, "1f4\r\n" + String(repeating: "d", count: 500) + "\r\n")
        loop.run()
        #expect(!chunked.isActive)
        #expect(table.counters.shedForBodyBudget == 2)
        #expect(table.counters.bodyBytesHeld == 2_000)
        // The first one's bytes go back when it closes; a body then fits, and goes back when answered.
        _ = try? first.finish()
        #expect(table.counters.bodyBytesHeld == 0)
        let third = try Self.connection(table: table, loop: loop)
        try Self.send(third, "POST /cgi-bin/gn/trace HTTP/1.1\r\nHost: x\r\nContent-Length: 200\r\n\r\n" + String(repeating: "c", count: 200))
        #expect(try Self.written(third).hasPrefix("HTTP/1.1 200 OK"))
        #expect(table.counters.bodyBytesHeld == 0)
        #expect(table.counters.mostBodyBytesHeld == 2_600)
        _ = try? third.finish()
    }
}
