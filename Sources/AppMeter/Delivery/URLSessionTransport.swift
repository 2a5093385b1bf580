import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends requests with `URLSession` (FoundationNetworking on Linux). No third-party HTTP client.
public struct URLSessionTransport: PingTransport {
    private let session: URLSession
    private let userAgent: String

    /// Creates a transport with an ephemeral session and a request timeout of `timeout` seconds.
    public init(timeout: TimeInterval = 30, userAgent: String = "AppMeter") {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.httpMaximumConnectionsPerHost = 2
        session = URLSession(configuration: configuration)
        self.userAgent = userAgent
    }

    /// Performs `request`.
    public func send(_ request: TransportRequest) async -> TransportOutcome {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method
        urlRequest.httpBody = request.body
        urlRequest.setValue(userAgent, forHTTPHeaderField: "User-Agent")
        do {
            let (data, response) = try await session.data(for: urlRequest)
            guard let http = response as? HTTPURLResponse else { return .failure("not an HTTP response") }
            let retryAfter = (http.value(forHTTPHeaderField: "Retry-After")).flatMap(Double.init)
            return .response(status: http.statusCode, retryAfter: retryAfter, body: data)
        } catch {
            return .failure(String(describing: error))
        }
    }
}
