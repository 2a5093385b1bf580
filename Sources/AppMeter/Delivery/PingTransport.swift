import Foundation

/// One HTTP request to the collector.
public struct TransportRequest: Sendable, Equatable {
    /// The full URL.
    public var url: URL
    /// `GET` for pings and config, `POST` for batches.
    public var method: String
    /// The request body, if any.
    public var body: Data?

    /// Creates a request.
    public init(url: URL, method: String = "GET", body: Data? = nil) {
        self.url = url
        self.method = method
        self.body = body
    }
}

/// What became of a request.
public enum TransportOutcome: Sendable, Equatable {
    /// The collector answered with an HTTP status; `retryAfter` is the `Retry-After` header in seconds.
    case response(status: Int, retryAfter: Double?, body: Data)
    /// No answer: DNS, connection, TLS or timeout failure.
    case failure(String)
}

/// How the engine reaches the collector. The default is ``URLSessionTransport``; tests inject a
/// recording fake, so every ping on the wire can be compared exactly.
public protocol PingTransport: Sendable {
    /// Performs `request` and reports the outcome; never throws.
    func send(_ request: TransportRequest) async -> TransportOutcome
}
