import CensusStore
package import Hummingbird

/// The one place a ``CensusError`` becomes an HTTP answer: the routes that catch one answer its
/// ``reply``, and one thrown from a route is answered the same way (`HTTPResponseError`).
extension CensusError: HTTPResponseError {
    /// The status and the text the client reads.
    var reply: CensusReply {
        switch self {
        // The SDK retries a 503; nothing of the request was stored.
        case .storageUnavailable, .databaseUnreachable:
            CensusReply(status: .serviceUnavailable, text: "storage unavailable; retry later", retryAfterSeconds: Self.storageRetryAfterSeconds)
        // The write was sent and not answered in time: it may yet commit, and its retry is then a
        // duplicate (census-decisions.md S47).
        case .noAnswer:
            CensusReply(status: .serviceUnavailable, text: "storage did not answer in time; it may have stored this: retry later (a stored ping is answered duplicate)",
                        retryAfterSeconds: Self.storageRetryAfterSeconds)
        // The commit was sent and its connection lost before the answer: the same uncertainty
        // (census-decisions.md S48).
        case .commitUnconfirmed:
            CensusReply(status: .serviceUnavailable, text: "storage did not confirm the commit; it may have stored this: retry later (a stored ping is answered duplicate)",
                        retryAfterSeconds: Self.storageRetryAfterSeconds)
        case .configUnavailable:
            CensusReply(status: .serviceUnavailable, text: "config unavailable; retry later")
        case .notReady:
            CensusReply(status: .serviceUnavailable, text: "not ready: \(description)")
        case .traceStorageFull:
            CensusReply(status: .serviceUnavailable, text: "trace storage is full for now; retry later",
                        retryAfterSeconds: TraceController.traceRetryAfterSeconds)
        case .tooManyWatchers:
            CensusReply(status: .serviceUnavailable, text: "too many dashboards are watching; try again later")
        case .badDatabaseURL, .signingKeyUnreadable, .tlsUnusable, .schemaNewer, .notBuiltIn:
            CensusReply(status: .internalServerError, text: description)
        }
    }

    /// When a write refused for its database may come back: after the writes' bound, time for a
    /// failover's new leader (census-decisions.md S47).
    static var storageRetryAfterSeconds: Int { Int(PingWriter.answerBound.components.seconds) }

    /// The status of ``reply``.
    package var status: HTTPResponse.Status { reply.status }

    /// ``reply``, with `Retry-After` when it says when to come back.
    var response: Response { reply.response }

    /// The answer to a request whose route threw this error.
    package func response(from request: Request, context: some RequestContext) throws -> Response {
        response
    }
}
