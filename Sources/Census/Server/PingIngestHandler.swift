import Hummingbird
import MeterWire
import NIOCore
import NIOHTTPTypes

/// The ping fast path (docs/performance.md): a channel handler in each HTTP/1 connection's
/// pipeline, after the HTTP codec and before Hummingbird's request handling, that answers
/// `GET /cgi-bin/gn?…` itself — same reader, validator, group-commit writer and answers as the
/// route (``CensusServer/ingestPing(query:uri:)``) — and passes every other request on untouched.
/// It saves each ping the router, the per-request task and the request/response types.
///
/// Requests reach it one at a time: the HTTP server pipeline's pipelining assistance holds the
/// next request of a connection until the current response has been written.
final class PingIngestHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundOut = HTTPResponsePart

    private static let prefix = WireRoute.ping + "?"
    private let server: CensusServer
    /// The path (with query) of the ping being received, or nil while passing a request on.
    private var ping: String?
    private var closesAfterResponse = false

    init(server: CensusServer) {
        self.server = server
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let request):
            if request.method == .get, let path = request.path, path.hasPrefix(Self.prefix) {
                ping = path
                closesAfterResponse = request.headerFields[.connection]?.lowercased() == "close"
            } else {
                ping = nil
                context.fireChannelRead(data)
            }
        case .body:
            if ping == nil { context.fireChannelRead(data) }
        case .end:
            guard let path = ping else { return context.fireChannelRead(data) }
            ping = nil
            answer(path, closing: closesAfterResponse, context: context)
        }
    }

    private func answer(_ path: String, closing: Bool, context: ChannelHandlerContext) {
        let boundHandler = NIOLoopBound(self, eventLoop: context.eventLoop)
        let boundContext = NIOLoopBound(context, eventLoop: context.eventLoop)
        let server = self.server
        let eventLoop = context.eventLoop
        let query = path.dropFirst(Self.prefix.count)
        Task {
            let reply = await server.ingestPing(query: query, uri: path)
            eventLoop.execute {
                boundHandler.value.write(reply, closing: closing, context: boundContext.value)
            }
        }
    }

    private func write(_ reply: CensusReply, closing: Bool, context: ChannelHandlerContext) {
        let body = context.channel.allocator.buffer(string: reply.text + "\n")
        var fields: HTTPFields = [.contentType: "text/plain; charset=utf-8", .contentLength: String(body.readableBytes)]
        if closing { fields[.connection] = "close" }
        context.write(wrapOutboundOut(.head(HTTPResponse(status: reply.status, headerFields: fields))), promise: nil)
        context.write(wrapOutboundOut(.body(body)), promise: nil)
        let done = context.eventLoop.makePromise(of: Void.self)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: done)
        if closing {
            let channel = context.channel
            done.futureResult.whenComplete { _ in channel.close(promise: nil) }
        }
    }
}
