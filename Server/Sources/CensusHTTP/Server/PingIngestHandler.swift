import CensusStore
import Logging
import MeterWire
import NIOCore
import NIOHTTP1
import NIOHTTPTypesHTTP1
import HTTPTypes

/// The ping fast path (docs/performance.md): a channel handler in each HTTP/1 connection's
/// pipeline, right after NIO's HTTP/1 decoder and before the conversion to HTTP types and
/// Hummingbird's request handling, that answers `GET /cgi-bin/gn?…` itself — same reader,
/// validator, group-commit writer and answers as the route (``CensusIntake/ingestPing(query:uri:on:reply:)``)
/// — and passes every other request on untouched. It saves each ping the router, the task per
/// request, and converting the request and response to and from HTTP types.
///
/// Requests reach it one at a time: the connection's ``RequestPhaseObserver`` holds the next
/// request of a connection until the current response has been written.
final class PingIngestHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private static let prefix = WireRoute.ping + "?"
    private let intake: CensusIntake
    /// The ping being received (its path with query), or nil while passing a request on.
    private var ping: (uri: String, version: HTTPVersion, keepAlive: Bool)?

    init(intake: CensusIntake) {
        self.intake = intake
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let request):
            if request.method == .GET, request.uri.hasPrefix(Self.prefix) {
                ping = (request.uri, request.version, request.isKeepAlive)
            } else {
                ping = nil
                context.fireChannelRead(data)
            }
        case .body:
            if ping == nil { context.fireChannelRead(data) }
        case .end:
            guard let received = ping else { return context.fireChannelRead(data) }
            ping = nil
            answer(received.uri, version: received.version, keepAlive: received.keepAlive, context: context)
        }
    }

    /// Reads and validates the ping here, on the event loop; the group commit answers on this
    /// loop once it is committed: no task per ping.
    private func answer(_ path: String, version: HTTPVersion, keepAlive: Bool, context: ChannelHandlerContext) {
        let bound = NIOLoopBound((handler: self, context: context), eventLoop: context.eventLoop)
        let query = Substring(path.utf8.dropFirst(Self.prefix.utf8.count))
        intake.ingestPing(query: query, uri: path, on: context.eventLoop) { reply in
            bound.value.handler.write(reply, version: version, keepAlive: keepAlive, context: bound.value.context)
        }
    }

    private func write(_ reply: CensusReply, version: HTTPVersion, keepAlive: Bool, context: ChannelHandlerContext) {
        var body = context.channel.allocator.buffer(capacity: reply.text.utf8.count + 1)
        body.writeString(reply.text)
        body.writeInteger(UInt8(ascii: "\n"))
        // Any origin may read the answer: a page sending pings with `fetch` learns whether they were
        // stored (the browser SDK, docs/browser.md); pings carry no credentials.
        var headers = HTTPHeaders([
            ("content-type", "text/plain; charset=utf-8"), ("content-length", String(body.readableBytes)),
            ("access-control-allow-origin", "*"),
        ])
        if let retryAfter = reply.retryAfterSeconds { headers.add(name: "retry-after", value: String(retryAfter)) }
        if !keepAlive {
            headers.add(name: "connection", value: "close")
        } else if version.minor == 0 {
            headers.add(name: "connection", value: "keep-alive")
        }
        let head = HTTPResponseHead(version: version, status: HTTPResponseStatus(statusCode: reply.status.code), headers: headers)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
        guard !keepAlive else { return context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil) }
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(promise: nil) }
    }
}

/// Puts a ``PingIngestHandler`` in front of the conversion to HTTP types when Hummingbird builds
/// a connection's pipeline (its extension point adds handlers only after that conversion), then
/// steps out. Should the conversion be missing, pings take the router's route: slower, same answers.
final class PingIngestInstaller: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = Any

    private let intake: CensusIntake

    init(intake: CensusIntake) {
        self.intake = intake
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let pipeline = context.pipeline.syncOperations
        do {
            let conversion = try pipeline.handler(type: HTTP1ToHTTPServerCodec.self)
            try pipeline.addHandler(PingIngestHandler(intake: intake), position: .before(conversion))
        } catch {
            intake.events.logger.warning("ping fast path not installed; pings go through the router", metadata: ["error": "\(error)"])
        }
        pipeline.removeHandler(context: context, promise: nil)
    }
}
