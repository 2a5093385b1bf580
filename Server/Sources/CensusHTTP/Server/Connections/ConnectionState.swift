import CensusStore
import NIOCore

/// ``ConnectionLimits``' timeouts as NIO counts time.
struct ConnectionTimeouts: Sendable, Equatable {
    var header: TimeAmount
    var body: TimeAmount
    var idle: TimeAmount
    var write: TimeAmount

    /// The shortest of the four: a connection's timer wakes at least this often, so a deadline
    /// that moves closer (a head that starts while idle) is never missed by more than nothing.
    var tick: TimeAmount { min(header, body, idle, write) }
}

/// One connection's timeline, kept by its ``ConnectionGuard`` on its event loop: what it is
/// waiting for and until when. Plain data, told the time by its caller, so it is tested without
/// a clock.
struct ConnectionState {
    /// What a connection took too long for.
    enum Expiry: Equatable {
        /// A request's head (or, first, anything at all after the accept).
        case header
        /// A request's body.
        case body
        /// The next request.
        case idle
        /// The client reading its answers: the answers waiting to be written stayed above the
        /// connection's high-water mark (census-decisions S40).
        case write
    }

    let timeouts: ConnectionTimeouts
    /// Requests whose head has arrived and whose response has not ended.
    private(set) var requestsInProgress = 0
    /// When the head being read began, while bytes of a head have arrived and it has not ended.
    private var headSince: NIODeadline?
    /// When the head of the request whose body is being read ended.
    private var bodySince: NIODeadline?
    /// When the connection last had nothing in progress (accepted, or its last response ended).
    private var waitingSince: NIODeadline
    /// Whether a request has begun on this connection.
    private var started = false
    /// Since when the answers waiting to be written have been above the high-water mark (the
    /// client is not reading them), while they are.
    private var unwritableSince: NIODeadline?
    /// The body bytes of the requests in progress.
    private var bodies = Bodies()

    private struct Bodies {
        /// What each request in progress has brought in, oldest first: held by the census until
        /// its answer ends (``ConnectionTable``'s body budget).
        var held: [Int] = []
        /// What of the request being read has arrived.
        var arrivedSoFar = 0
    }

    /// The body bytes the connection's requests in progress hold.
    var heldBodyBytes: Int { bodies.held.reduce(0, +) }

    init(accepted: NIODeadline, timeouts: ConnectionTimeouts) {
        self.waitingSince = accepted
        self.timeouts = timeouts
    }

    /// Bytes arrived. Outside a body they begin a head, whose time runs from now; the first
    /// head's from the accept, so a connection cannot buy time by sending one byte late.
    mutating func bytesArrived(at now: NIODeadline) {
        guard headSince == nil, bodySince == nil else { return }
        headSince = started ? now : waitingSince
    }

    /// A request's head has been decoded; its body's time starts.
    mutating func requestHead(at now: NIODeadline) {
        headSince = nil
        bodySince = now
        requestsInProgress += 1
        bodies.held.append(0)
        bodies.arrivedSoFar = 0
        started = true
    }

    /// `count` bytes of the body being read have arrived. Returns how many of them lie beyond
    /// what its request holds already (its announced length, or what arrived before): the bytes
    /// the body budget must take now.
    mutating func bodyArrived(_ count: Int) -> Int {
        guard !bodies.held.isEmpty else { return 0 }
        bodies.arrivedSoFar += count
        let beyond = max(0, bodies.arrivedSoFar - bodies.held[bodies.held.count - 1])
        bodies.held[bodies.held.count - 1] += beyond
        return beyond
    }

    /// The body being read announced `count` bytes (`content-length`), all taken from the budget at once.
    mutating func bodyAnnounced(_ count: Int) {
        guard !bodies.held.isEmpty else { return }
        bodies.held[bodies.held.count - 1] += count
    }

    /// A request's body has ended.
    mutating func requestEnd() {
        bodySince = nil
    }

    /// A response has ended (written to the connection). Returns the body bytes its request held.
    @discardableResult
    mutating func responseEnd(at now: NIODeadline) -> Int {
        requestsInProgress = max(0, requestsInProgress - 1)
        if requestsInProgress == 0 { waitingSince = now }
        return bodies.held.isEmpty ? 0 : bodies.held.removeFirst()
    }

    /// The connection's answers can be written (`true`) or wait above the high-water mark.
    mutating func writability(_ writable: Bool, at now: NIODeadline) {
        if writable {
            unwritableSince = nil
        } else if unwritableSince == nil {
            unwritableSince = now
        }
    }

    /// When the connection times out, and why; nil while the census is working on an answer (the
    /// census's own time is not the sender's fault), unless its answers wait for a client that
    /// does not read them.
    var deadline: (at: NIODeadline, expiry: Expiry)? {
        guard let unwritableSince else { return readDeadline }
        let write = unwritableSince + timeouts.write
        guard let read = readDeadline, read.at < write else { return (write, .write) }
        return read
    }

    private var readDeadline: (at: NIODeadline, expiry: Expiry)? {
        if let headSince { return (headSince + timeouts.header, .header) }
        if let bodySince { return (bodySince + timeouts.body, .body) }
        if requestsInProgress > 0 { return nil }
        return started ? (waitingSince + timeouts.idle, .idle) : (waitingSince + timeouts.header, .header)
    }

    /// Whether the census owes this connection an answer and is working on it: such a
    /// connection is never closed to make room for another. One whose client does not read its
    /// answers is not spared: it would hold its place for nothing.
    var awaitingAnswer: Bool { unwritableSince == nil && requestsInProgress > (bodySince == nil ? 0 : 1) }

    /// Whether a timed-out connection may be told so with a `408` before it is closed: only when
    /// no response is owed on it, which a `408` would cut into.
    func mayAnswerTimeout(_ expiry: Expiry) -> Bool {
        switch expiry {
        case .header: requestsInProgress == 0
        case .body: requestsInProgress == 1
        case .idle, .write: false
        }
    }
}
