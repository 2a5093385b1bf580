import NIOCore
import NIOHTTP1

/// Tells a connection's ``ConnectionGuard`` where its requests and responses begin and end:
/// after the HTTP decoder and in front of the ping fast path, so it sees the pings' answers as
/// well as the router's.
final class RequestPhaseObserver: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private let connection: ConnectionGuard

    init(connection: ConnectionGuard) {
        self.connection = connection
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head: connection.requestHead()
        case .body: break
        case .end: connection.requestEnd()
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) { connection.responseEnd() }
        context.write(data, promise: promise)
    }
}

/// Puts a ``ConnectionGuard`` first in a connection's pipeline and its ``RequestPhaseObserver``
/// after the HTTP decoder when Hummingbird builds the pipeline (its extension point adds
/// handlers only after the conversion to HTTP types), then steps out. It must come before
/// ``PingIngestInstaller``, which puts the ping fast path just before the conversion too: the
/// observer then sits in front of it and sees its answers.
final class ConnectionGuardInstaller: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = Any

    private let table: ConnectionTable
    private let timeouts: ConnectionTimeouts

    init(table: ConnectionTable, timeouts: ConnectionTimeouts) {
        self.table = table
        self.timeouts = timeouts
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let pipeline = context.pipeline.syncOperations
        let connection = ConnectionGuard(table: table, timeouts: timeouts)
        do {
            let decoder = try pipeline.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self)
            try pipeline.addHandler(connection, position: .first)
            try pipeline.addHandler(RequestPhaseObserver(connection: connection), position: .after(decoder))
        } catch {
            // Without its pipeline a connection cannot be held to the limits; none is better than one unbounded.
            context.close(promise: nil)
        }
        pipeline.removeHandler(context: context, promise: nil)
    }
}
