public import Foundation
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
            guard let http = response as? HTTPURLResponse else { return .exchangeFailed("not an HTTP response") }
            let retryAfter = (http.value(forHTTPHeaderField: "Retry-After")).flatMap(Double.init)
            return .response(status: http.statusCode, retryAfter: retryAfter, body: data)
        } catch {
            return Self.outcome(of: error)
        }
    }

    /// `URLError` codes meaning the platform would not create or start the request (error 8).
    static let notCreatedCodes: Set<URLError.Code> = [.badURL, .unsupportedURL, .appTransportSecurityRequiresSecureConnection]
    /// `URLError` codes meaning the collector could not be reached (error 1001); every other
    /// error failed the exchange with a reached collector (error 9). Decisions.md E11a.
    static let unreachableCodes: Set<URLError.Code> = [
        .notConnectedToInternet, .cannotFindHost, .cannotConnectToHost, .dnsLookupFailed, .networkConnectionLost,
        .timedOut, .internationalRoamingOff, .dataNotAllowed, .callIsActive,
    ]

    /// What a thrown `error` means for the attempt.
    static func outcome(of error: any Error) -> TransportOutcome {
        let reason = String(describing: error)
        guard let code = (error as? URLError)?.code else { return .exchangeFailed(reason) }
        if notCreatedCodes.contains(code) { return .requestNotCreated(reason) }
        if unreachableCodes.contains(code) { return .failure(reason) }
        return .exchangeFailed(reason)
    }
}
