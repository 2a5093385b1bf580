public import Foundation

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
    /// No answer: the collector could not be reached (no network, DNS, connection refused or lost,
    /// timeout). Error 1001.
    case failure(String)
    /// The platform would not create or start the request (a URL it does not support, App
    /// Transport Security refusing plain HTTP). Error 8.
    case requestNotCreated(String)
    /// The collector was reached but the HTTP exchange failed (TLS, a malformed or non-HTTP
    /// answer, redirects). Error 9.
    case exchangeFailed(String)

    /// Why no HTTP status came back, or nil when one did.
    public var failureReason: String? {
        switch self {
        case .response: nil
        case .failure(let reason), .requestNotCreated(let reason), .exchangeFailed(let reason): reason
        }
    }
}

/// How the engine reaches the collector. The default is ``URLSessionTransport``; tests inject a
/// recording fake, so every ping on the wire can be compared exactly.
public protocol PingTransport: Sendable {
    /// Performs `request` and reports the outcome; never throws.
    func send(_ request: TransportRequest) async -> TransportOutcome
}
