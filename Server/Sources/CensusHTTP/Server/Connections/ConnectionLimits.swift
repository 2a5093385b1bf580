import CensusStore
import NIOCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How long a connection may take and how many may be open at once (docs/census.md §4c): what
/// keeps a census on the public internet answering while strangers open connections and send
/// nothing, half a header, or a body a byte at a time.
package struct ConnectionLimits: Sendable, Equatable {
    /// How long a request's head (request line and headers) may take, from its first byte; the
    /// first request of a connection counts from the connection's accept, so a connection that
    /// sends nothing at all is closed after this too. Answered `408` and closed.
    package var headerTimeout: Duration
    /// How long a request's body may take, from the end of its head. Answered `408` and closed.
    package var bodyTimeout: Duration
    /// How long a connection may wait, with no request in progress, for its next request. Closed.
    package var idleTimeout: Duration
    /// How long a connection's answers may wait for its client to read them: while more than
    /// the connection's high-water mark (64 KiB) waits to be written, the census reads nothing
    /// more from it, and after this long it is closed (census-decisions S40).
    package var writeTimeout: Duration
    /// How many connections may be open at once. A connection accepted beyond it closes the
    /// oldest one that is not waiting for an answer (an idle one, one still sending its
    /// request, or one whose client does not read), or, when every other one is, is closed itself.
    package var maxConnections: Int
    /// How many bytes of request bodies the census holds at once, across connections: from a
    /// body's first byte to the end of its answer. A body that would take it past this is
    /// answered `503` with `Retry-After` and its connection closed (census-decisions S40).
    package var bodyBudget: Int

    /// The default ``bodyBudget``: 64 MiB, a hundred and twenty-eight half-sent trace bodies.
    package static let standardBodyBudget = 64 << 20

    /// Limits with the given values.
    package init(headerTimeout: Duration = .seconds(10), bodyTimeout: Duration = .seconds(30),
                idleTimeout: Duration = .seconds(60), writeTimeout: Duration = .seconds(60),
                maxConnections: Int, bodyBudget: Int = Self.standardBodyBudget) {
        self.headerTimeout = headerTimeout
        self.bodyTimeout = bodyTimeout
        self.idleTimeout = idleTimeout
        self.writeTimeout = writeTimeout
        self.maxConnections = maxConnections
        self.bodyBudget = bodyBudget
    }

    /// The defaults for the public internet: 10 s for a head, 30 s for a body, 60 s idle, and
    /// three quarters of the open-file limit as connections, so the rest is left for the database,
    /// logs and accepting (a process out of files cannot accept the connection that would close
    /// another).
    package static func standard(openFileLimit: Int = Self.openFileLimit) -> ConnectionLimits {
        ConnectionLimits(maxConnections: max(1, openFileLimit / 4 * 3))
    }

    /// This process's open-file limit (the soft `RLIMIT_NOFILE`) now, at most 1,048,576
    /// (unlimited counts as that).
    package static var openFileLimit: Int {
        var limit = rlimit()
        #if canImport(Glibc)
        let read = getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
        #else
        let read = getrlimit(RLIMIT_NOFILE, &limit)
        #endif
        guard read == 0 else { return 1024 }
        return Int(min(limit.rlim_cur, 1 << 20))
    }

    /// The timeouts as NIO counts time.
    var timeouts: ConnectionTimeouts {
        ConnectionTimeouts(header: TimeAmount(headerTimeout), body: TimeAmount(bodyTimeout), idle: TimeAmount(idleTimeout),
                           write: TimeAmount(writeTimeout))
    }
}
