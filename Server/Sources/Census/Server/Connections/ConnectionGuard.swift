import NIOCore

/// Holds one connection to ``ConnectionLimits``: first in its pipeline, where it sees every byte
/// before the HTTP decoder (a half-sent head never becomes a request part), with a
/// ``RequestPhaseObserver`` after the decoder telling it where requests and responses begin and end.
///
/// One timer per connection, re-armed when it fires rather than on every request: it is set for
/// the connection's deadline or one ``ConnectionTimeouts/tick`` away, whichever is sooner, and
/// every deadline a request sets is at least a tick away, so none is missed and a busy
/// keep-alive connection costs a timer every few seconds, not one per request.
final class ConnectionGuard: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let table: ConnectionTable
    private let timeouts: ConnectionTimeouts
    /// Nil until the connection is active, and again once it is closing.
    private var state: ConnectionState?
    private var id: UInt64?
    private var timer: Scheduled<Void>?
    private var context: ChannelHandlerContext?
    private var awaitingAnswer = false

    init(table: ConnectionTable, timeouts: ConnectionTimeouts) {
        self.table = table
        self.timeouts = timeouts
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        if context.channel.isActive { start(context) }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        stop()
        self.context = nil
    }

    func channelActive(context: ChannelHandlerContext) {
        start(context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        stop()
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        state?.bytesArrived(at: context.eventLoop.now)
        context.fireChannelRead(data)
    }

    // The observer's news, on this connection's event loop.

    func requestHead() {
        guard let context else { return }
        state?.requestHead(at: context.eventLoop.now)
        publishAwaitingAnswer()
    }

    func requestEnd() {
        state?.requestEnd()
        publishAwaitingAnswer()
    }

    func responseEnd() {
        guard let context else { return }
        state?.responseEnd(at: context.eventLoop.now)
        publishAwaitingAnswer()
    }

    private func start(_ context: ChannelHandlerContext) {
        guard state == nil, id == nil else { return }
        guard let id = table.admit(context.channel) else {
            // At the cap, and every other connection is owed an answer.
            context.close(promise: nil)
            return
        }
        self.id = id
        state = ConnectionState(accepted: context.eventLoop.now, timeouts: timeouts)
        arm(context)
    }

    private func stop() {
        timer?.cancel()
        timer = nil
        state = nil
        if let id { table.remove(id) }
        id = nil
    }

    /// Tells the table when the census starts or stops owing this connection an answer (twice a
    /// request: the lock is taken then, not on every byte).
    private func publishAwaitingAnswer() {
        guard let id, let awaiting = state?.awaitingAnswer, awaiting != awaitingAnswer else { return }
        awaitingAnswer = awaiting
        table.setAwaitingAnswer(id, awaiting)
    }

    private func arm(_ context: ChannelHandlerContext) {
        guard let state else { return }
        let now = context.eventLoop.now
        let due = min(state.deadline?.at ?? .distantFuture, now + timeouts.tick)
        timer = context.eventLoop.assumeIsolated().scheduleTask(deadline: due) { [self] in
            timer = nil
            check(context)
        }
    }

    private func check(_ context: ChannelHandlerContext) {
        guard let state else { return }
        guard let (deadline, expiry) = state.deadline.map({ ($0.at, $0.expiry) }), deadline <= context.eventLoop.now else {
            return arm(context)
        }
        table.count(expiry)
        if state.mayAnswerTimeout(expiry) {
            context.writeAndFlush(wrapOutboundOut(Self.timeoutAnswer(expiry, timeouts: timeouts, allocator: context.channel.allocator)),
                                  promise: nil)
        }
        stop()
        context.close(promise: nil)
    }

    /// `408` with the reason, written as bytes: it goes out before the HTTP encoder, which has
    /// no request to answer.
    static func timeoutAnswer(_ expiry: ConnectionState.Expiry, timeouts: ConnectionTimeouts,
                              allocator: ByteBufferAllocator) -> ByteBuffer {
        let reason = switch expiry {
        case .header: "request head not received within \(timeouts.header.secondsText)\n"
        case .body: "request body not received within \(timeouts.body.secondsText)\n"
        case .idle: "no request within \(timeouts.idle.secondsText)\n"
        }
        let head = "HTTP/1.1 408 Request Timeout\r\ncontent-type: text/plain; charset=utf-8\r\n"
            + "content-length: \(reason.utf8.count)\r\nconnection: close\r\n\r\n"
        return allocator.buffer(string: head + reason)
    }
}

extension TimeAmount {
    /// "10 s", "0.25 s".
    var secondsText: String {
        let milliseconds = nanoseconds / 1_000_000
        return milliseconds % 1000 == 0 ? "\(milliseconds / 1000) s" : "\(Double(milliseconds) / 1000) s"
    }
}
