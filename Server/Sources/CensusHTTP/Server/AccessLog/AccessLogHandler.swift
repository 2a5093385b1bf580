import CensusStore
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypesHTTP1

/// Writes a connection's access-log lines (``AccessLog``): in its pipeline after the pipelining
/// assistance and in front of the ping fast path, so it sees one request at a time and the pings'
/// answers as well as the router's. A request costs a clock read and its path's copy up to the
/// query; the client's address is shown once per connection.
final class AccessLogHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private let log: AccessLog
    private var client = "unknown"
    /// The request being answered: its line so far and when its head arrived.
    private var pending: (line: AccessLogLine, started: NIODeadline)?

    init(log: AccessLog) {
        self.log = log
    }

    func handlerAdded(context: ChannelHandlerContext) {
        client = ClientAddress.shown(context.channel.remoteAddress, as: log.addresses)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head(let head) = unwrapInboundIn(data) {
            let line = AccessLogLine(method: AccessLogLine.escaped(head.method.rawValue.utf8), path: AccessLogLine.path(of: head.uri),
                                     status: 0, bytes: 0, nanoseconds: 0, client: client)
            pending = (line, .now())
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(let head):
            // An interim answer (100 Continue) is not the request's status.
            if head.status.code >= 200 { pending?.line.status = Int(head.status.code) }
        case .body(.byteBuffer(let buffer)):
            pending?.line.bytes += buffer.readableBytes
        case .body(.fileRegion(let region)):
            pending?.line.bytes += region.readableBytes
        case .end:
            if let (written, started) = pending {
                var line = written
                line.nanoseconds = (NIODeadline.now() - started).nanoseconds
                line.endedAt = .now()
                log.write(line)
                pending = nil
            }
        }
        context.write(data, promise: promise)
    }
}

/// Puts an ``AccessLogHandler`` just before the conversion to HTTP types when Hummingbird builds a
/// connection's pipeline, then steps out. It must come before ``PingIngestInstaller``, which
/// puts the fast path at the same place: the log then sits in front of it.
final class AccessLogInstaller: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = Any

    private let log: AccessLog

    init(log: AccessLog) {
        self.log = log
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let pipeline = context.pipeline.syncOperations
        do {
            let conversion = try pipeline.handler(type: HTTP1ToHTTPServerCodec.self)
            try pipeline.addHandler(AccessLogHandler(log: log), position: .before(conversion))
        } catch {
            log.logger.warning("access log not installed on a connection", metadata: ["error": "\(error)"])
        }
        pipeline.removeHandler(context: context, promise: nil)
    }
}
