import CensusStore
import NIOCore

/// Holds one connection to ``ConnectionLimits``: first in its pipeline, where it sees every byte
/// before the HTTP decoder (a half-sent head never becomes a request part), with a
/// ``RequestPhaseObserver`` after the decoder telling it where requests and responses begin and end.
///
/// One timer per connection, re-armed when it fires rather than on every request: it is set for
/// the connection's deadline or one ``ConnectionTimeouts/tick`` away, whichever is sooner, and
/// every deadline a request sets is at least a tick away, so none is missed and a busy
/// keep-alive connection costs a timer every few seconds, not one per request.
///
/// It also hands the decoder what it reads a slice at a time (a few requests, or the rest of a
/// body of known length), and keeps the rest as it came while the observer holds a request back:
/// a client that pipelines hundreds of requests and reads no answer then costs its bytes, not
/// hundreds of decoded requests (census-decisions S40).
final class ConnectionGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// The most bytes handed to the decoder at once outside a body of known length: a few requests.
    static let slice = 4096
    /// The socket's send buffer (`SO_SNDBUF`; Linux doubles it): the 337 kB browser engine
    /// still leaves in one go, at 20 Mbit/s over a 100 ms round trip.
    static let sendBuffer: SocketOptionValue = 128 << 10

    private let table: ConnectionTable
    private let timeouts: ConnectionTimeouts
    /// Nil until the connection is active, and again once it is closing.
    private var state: ConnectionState?
    private var id: UInt64?
    private var timer: Scheduled<Void>?
    private var context: ChannelHandlerContext?
    private var awaitingAnswer = false
    /// What is held back while the observer holds a request.
    private var held = Held()

    private struct Held {
        /// Bytes read and not yet handed on.
        var unparsed: ByteBuffer?
        /// A read asked for while bytes were kept, sent on once none is.
        var readPending = false
    }

    /// How many bytes are kept (tests).
    var keptBytes: Int { held.unparsed?.readableBytes ?? 0 }
    /// How many bytes may go to the decoder at once now, from the connection's
    /// ``RequestPhaseObserver``: nil while it holds a request back (set by it).
    var nextSlice: () -> Int? = { ConnectionGuard.slice }

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
        var bytes = unwrapInboundIn(data)
        if held.unparsed != nil {
            held.unparsed?.writeBuffer(&bytes)
        } else {
            handOn(&bytes, context)
        }
    }

    func read(context: ChannelHandlerContext) {
        if held.unparsed == nil { context.read() } else { held.readPending = true }
    }

    /// The observer has passed on what it held: the bytes kept go on, then the read held back.
    func resume() {
        guard let context, var bytes = held.unparsed else { return }
        held.unparsed = nil
        handOn(&bytes, context)
        context.fireChannelReadComplete()
        if held.unparsed == nil, held.readPending {
            held.readPending = false
            context.read()
        }
    }

    /// Hands `bytes` on a slice at a time, keeping the rest once the observer holds a request.
    private func handOn(_ bytes: inout ByteBuffer, _ context: ChannelHandlerContext) {
        while bytes.readableBytes > 0 {
            guard let length = nextSlice() else {
                held.unparsed = bytes
                return
            }
            let slice = bytes.readSlice(length: min(length, bytes.readableBytes))!
            context.fireChannelRead(wrapInboundOut(slice))
        }
    }

    /// The answers waiting to be written crossed the high-water mark, one way or the other: the
    /// ``NIOCore/BackPressureHandler`` after this one stops or resumes reading; this one times
    /// the wait and stops sparing the connection meanwhile (census-decisions S40).
    func channelWritabilityChanged(context: ChannelHandlerContext) {
        state?.writability(context.channel.isWritable, at: context.eventLoop.now)
        publishAwaitingAnswer()
        context.fireChannelWritabilityChanged()
    }

    // The observer's news, on this connection's event loop.

    /// A request's head has arrived, announcing a body of `contentLength` bytes. Returns false
    /// when the body budget cannot hold them: the connection is then answered `503` and closed
    /// before its body is read, and the head must go no further.
    func requestHead(contentLength: Int) -> Bool {
        guard let context, state != nil else { return false }
        state?.requestHead(at: context.eventLoop.now)
        publishAwaitingAnswer()
        guard contentLength > 0 else { return true }
        guard table.holdBody(contentLength) else { return shed(context) }
        state?.bodyAnnounced(contentLength)
        return true
    }

    func requestEnd() {
        state?.requestEnd()
        publishAwaitingAnswer()
    }

    func responseEnd() {
        guard let context, let released = state?.responseEnd(at: context.eventLoop.now) else { return }
        table.releaseBody(released)
        publishAwaitingAnswer()
    }

    /// `bytes` of the body being read have arrived. Returns false when the census's body budget
    /// cannot hold those beyond its announced length: the connection is then answered `503` and
    /// closed, and the bytes must go no further.
    func bodyArrived(_ bytes: Int) -> Bool {
        guard let context, var next = state else { return false }
        let beyond = next.bodyArrived(bytes)
        // Counted only once the budget took them, so the close gives back no more than was taken.
        guard beyond == 0 || table.holdBody(beyond) else { return shed(context) }
        state = next
        return true
    }

    /// Answers `503` (when no other answer is owed) and closes the connection: its body would
    /// take the budget past its bound.
    private func shed(_ context: ChannelHandlerContext) -> Bool {
        if state?.mayAnswerTimeout(.body) == true {
            context.writeAndFlush(wrapOutboundOut(Self.bodyBudgetAnswer(timeouts: timeouts, allocator: context.channel.allocator)),
                                  promise: nil)
        }
        stop()
        context.close(promise: nil)
        return false
    }

    private func start(_ context: ChannelHandlerContext) {
        guard state == nil, id == nil else { return }
        guard let id = table.admit(context.channel) else {
            // At the cap, and every other connection is owed an answer.
            context.close(promise: nil)
            return
        }
        self.id = id
        // The kernel's share of answers waiting unread: without it Linux grows a socket's send
        // buffer to 4 MiB, copying that much per client that does not read (census-decisions S40).
        try? context.channel.syncOptions?.setOption(ChannelOptions.socketOption(.so_sndbuf), value: Self.sendBuffer)
        state = ConnectionState(accepted: context.eventLoop.now, timeouts: timeouts)
        arm(context)
    }

    private func stop() {
        timer?.cancel()
        timer = nil
        held.unparsed = nil
        if let held = state?.heldBodyBytes { table.releaseBody(held) }
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
        case .write: "answers not read within \(timeouts.write.secondsText)\n"
        }
        let head = "HTTP/1.1 408 Request Timeout\r\ncontent-type: text/plain; charset=utf-8\r\n"
            + "content-length: \(reason.utf8.count)\r\nconnection: close\r\n\r\n"
        return allocator.buffer(string: head + reason)
    }

    /// `503` with `Retry-After`: the bodies other connections are sending fill the budget; by
    /// one body timeout from now each of them has ended or been closed.
    static func bodyBudgetAnswer(timeouts: ConnectionTimeouts, allocator: ByteBufferAllocator) -> ByteBuffer {
        let reason = "the census holds as many request bodies as it takes; send again later\n"
        let retry = max(1, (timeouts.body.nanoseconds + 999_999_999) / 1_000_000_000)
        let head = "HTTP/1.1 503 Service Unavailable\r\ncontent-type: text/plain; charset=utf-8\r\nretry-after: \(retry)\r\n"
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
