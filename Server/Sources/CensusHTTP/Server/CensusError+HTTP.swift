import CensusStore
package import Hummingbird

/// The one place a ``CensusError`` becomes an HTTP answer: the routes that catch one answer its
/// ``reply``, and one thrown from a route is answered the same way (`HTTPResponseError`).
extension CensusError: HTTPResponseError {
    /// The status and the text the client reads.
    var reply: CensusReply {
        switch self {
        // The SDK retries a 503; nothing of the request was stored.
        case .storageUnavailable, .noAnswer, .databaseUnreachable:
            CensusReply(status: .serviceUnavailable, text: "storage unavailable; retry later")
        case .configUnavailable:
            CensusReply(status: .serviceUnavailable, text: "config unavailable; retry later")
        case .notReady:
            CensusReply(status: .serviceUnavailable, text: "not ready: \(description)")
        case .traceStorageFull:
            CensusReply(status: .serviceUnavailable, text: "trace storage is full for now; retry later")
        case .tooManyWatchers:
            CensusReply(status: .serviceUnavailable, text: "too many dashboards are watching; try again later")
        case .badDatabaseURL, .signingKeyUnreadable, .tlsUnusable, .schemaNewer, .notBuiltIn:
            CensusReply(status: .internalServerError, text: description)
        }
    }

    /// When a refused request may come back: a full trace budget frees at the next prune.
    var retryAfterSeconds: Int? {
        if case .traceStorageFull = self { TraceController.traceRetryAfterSeconds } else { nil }
    }

    /// The status of ``reply``.
    package var status: HTTPResponse.Status { reply.status }

    /// ``reply``, with `Retry-After` when it says when to come back.
    var response: Response {
        var response = reply.response
        if let retryAfterSeconds { response.headers[.retryAfter] = String(retryAfterSeconds) }
        return response
    }

    /// The answer to a request whose route threw this error.
    package func response(from request: Request, context: some RequestContext) throws -> Response {
        response
    }
}
