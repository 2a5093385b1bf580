import CensusStore
public import Hummingbird
public import MeterWire

extension ConfigAnswer: @retroactive ResponseEncodable {}
extension BatchAnswer: @retroactive ResponseEncodable {}

/// `GET /api/v1/report`: the credit, and per app what was not taken at face value.
struct ReportResponse: ResponseEncodable {
    let rows: [CreditRow]
    let plausibility: [PlausibilityRow]
    /// Whether flagged sessions are left out of `rows` (the census's policy).
    let excludesFlagged: Bool
    /// The replica read, as last sampled; absent when the census reads its own store.
    let readReplica: ReadReplica.Status?
}

/// `GET /api/v1/report/dtvr`.
struct DTVRReportResponse: ResponseEncodable {
    let rows: [DTVRRow]
}

/// `GET /api/v1/report/viewability`.
struct ViewabilityReportResponse: ResponseEncodable {
    let rows: [ViewabilityRow]
    /// Whether flagged sessions are left out of `rows` (the census's policy).
    let excludesFlagged: Bool
}

/// `GET /api/v1/sessions/{sesid}/pings`.
struct SessionResponse: ResponseEncodable {
    let session: String
    let pings: [StoredPing]
}

/// `GET /api/v1/stats`.
struct StatsResponse: ResponseEncodable {
    let storedPings: Int64
    let storedRejects: Int64
    let sinceStart: CensusCounters
    /// What the connection limits did since start.
    let connections: ConnectionCounters
    /// The replica read, as last sampled; absent when the census reads its own store.
    let readReplica: ReadReplica.Status?
}

/// A plain-text answer, before it becomes a Hummingbird `Response` or, on the fast path, HTTP parts.
package struct CensusReply: Sendable {
    /// The answer's status.
    package let status: HTTPResponse.Status
    /// The answer's one line of text.
    package let text: String
    /// When the client may try again (`Retry-After`), for a refusal that will pass later.
    var retryAfterSeconds: Int?

    init(status: HTTPResponse.Status, text: String, retryAfterSeconds: Int? = nil) {
        self.status = status
        self.text = text
        self.retryAfterSeconds = retryAfterSeconds
    }

    var response: Response {
        var response = Response.text(status, text)
        if let retryAfterSeconds { response.headers[.retryAfter] = String(retryAfterSeconds) }
        return response
    }

    /// `200 stored`, or `200 duplicate` for an id already stored (acknowledged: the SDK is done).
    static func stored(_ isNew: Bool) -> CensusReply { CensusReply(status: .ok, text: isNew ? "stored" : "duplicate") }
}

extension Response {
    /// A plain-text response.
    static func text(_ status: HTTPResponse.Status, _ text: String) -> Response {
        Response(
            status: status, headers: [.contentType: "text/plain; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(string: text + "\n")))
    }
}
