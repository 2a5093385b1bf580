import CensusStore
import NIOCore
import NIOHTTP1

/// Tells a connection's ``ConnectionGuard`` where its requests and responses begin and end:
/// after the HTTP decoder and in front of the ping fast path, so it sees the pings' answers as
/// well as the router's.
///
/// It also passes a connection's requests on one at a time, as NIO's pipelining assistance does
/// (Hummingbird leaves that off): the next request's head waits until the answer before it has
/// been written, and while the answers wait unread (above the high-water mark). Meanwhile the
/// socket is not read, so what waits is at most one read's worth. Requests a client pipelines
/// without reading its answers then cost one answer, not hundreds, a held request is not counted
/// as owed an answer, and answers leave in the order of their requests whichever handler — the
/// ping fast path or the router — gives them (census-decisions S40).
final class RequestPhaseObserver: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private let connection: ConnectionGuard
    /// Request parts read but held back, from the first head that had to wait.
    private var held = CircularBuffer<NIOAny>()
    /// Requests passed on whose answers have not ended: 0 or 1.
    private var unanswered = 0
    /// A read asked for while parts were held, sent on once none is.
    private var readPending = false
    /// Whether ``release(_:)`` is running: an answer written synchronously while it passes a
    /// request on must not start another walk of the held parts, but asks it for another round.
    private var releasing = false
    private var releaseAgain = false

    init(connection: ConnectionGuard) {
        self.connection = connection
    }

    /// The bytes of the body being read still to come, as its `content-length` says.
    private var bodyRemaining = 0

    /// How many bytes the guard may hand the decoder at once: nil while a request is held; the
    /// rest of a body of known length in one go (body bytes decode to nothing that waits); else
    /// a few requests' worth.
    var nextSlice: Int? {
        held.isEmpty ? max(ConnectionGuard.slice, bodyRemaining) : nil
    }
    /// How many request parts are held back (tests).
    var heldParts: Int { held.count }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if !held.isEmpty || (Self.isHead(unwrapInboundIn(data)) && !mayPassHead(context)) {
            held.append(data)
            return
        }
        deliver(data, context: context)
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        context.fireChannelWritabilityChanged()
        release(context)
    }

    func channelInactive(context: ChannelHandlerContext) {
        held.removeAll()
        context.fireChannelInactive()
    }

    func read(context: ChannelHandlerContext) {
        if held.isEmpty { context.read() } else { readPending = true }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard case .end = unwrapOutboundIn(data) else { return context.write(data, promise: promise) }
        connection.responseEnd()
        unanswered = max(0, unanswered - 1)
        context.write(data, promise: promise)
        release(context)
    }

    private func mayPassHead(_ context: ChannelHandlerContext) -> Bool {
        unanswered == 0 && context.channel.isWritable
    }

    /// Passes on the held parts up to the next head that must wait, then the bytes the guard
    /// kept, then the read held back. An answer written while it runs asks for another round.
    private func release(_ context: ChannelHandlerContext) {
        guard !releasing else {
            releaseAgain = true
            return
        }
        releasing = true
        defer { releasing = false }
        var delivered = false
        repeat {
            releaseAgain = false
            while let next = held.first, !Self.isHead(unwrapInboundIn(next)) || mayPassHead(context) {
                held.removeFirst()
                deliver(next, context: context)
                delivered = true
            }
            if held.isEmpty { connection.resume() }
        } while releaseAgain
        if delivered { context.fireChannelReadComplete() }
        if held.isEmpty, readPending {
            readPending = false
            context.read()
        }
    }

    private func deliver(_ data: NIOAny, context: ChannelHandlerContext) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            unanswered += 1
            bodyRemaining = head.headers.first(name: "content-length").flatMap { Int($0) }.map { max(0, $0) } ?? 0
            // A body announced past the budget is refused before it is read (census-decisions S40).
            guard connection.requestHead(contentLength: bodyRemaining) else { return }
        case .body(let bytes):
            bodyRemaining = max(0, bodyRemaining - bytes.readableBytes)
            // Past the body budget the connection is answered and closed; the bytes go no further.
            guard connection.bodyArrived(bytes.readableBytes) else { return }
        case .end:
            bodyRemaining = 0
            connection.requestEnd()
        }
        context.fireChannelRead(data)
    }

    private static func isHead(_ part: HTTPServerRequestPart) -> Bool {
        if case .head = part { return true }
        return false
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
            // Reads nothing more while the connection's answers wait unread (census-decisions S40).
            try pipeline.addHandler(BackPressureHandler(), position: .after(connection))
            let observer = RequestPhaseObserver(connection: connection)
            connection.nextSlice = { [weak observer] in
                guard let observer else { return ConnectionGuard.slice }
                return observer.nextSlice
            }
            try pipeline.addHandler(observer, position: .after(decoder))
        } catch {
            // Without its pipeline a connection cannot be held to the limits; none is better than one unbounded.
            context.close(promise: nil)
        }
        pipeline.removeHandler(context: context, promise: nil)
    }
}
