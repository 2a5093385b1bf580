import Foundation
import MeterWire

/// A viewability ping as the census stores it: the identifying fields of its query and the
/// seconds its series say were viewable and audible (docs/protocol.md §2g).
public struct IncomingViewability: Sendable, Equatable {
    public var pingID: String
    public var appID: String
    public var sessionID: String
    public var assetID: String
    public var createdAt: Int64
    public var report: ViewabilityReport
    public var body: String

    /// Reads `POST /cgi-bin/gn/viewability?<query>` with its JSON `body`.
    public static func parse(query: Substring, body: String) -> Result<IncomingViewability, PingRejection> {
        func reject(_ reason: String) -> Result<IncomingViewability, PingRejection> { .failure(PingRejection(reason: "viewability: \(reason)")) }
        let values: PingQuery
        switch PingQuery.parse(query) {
        case .success(let parsed): values = parsed
        case .failure(let problem): return reject(problem.reason)
        }
        func field(_ field: PingField) -> String? { values.unprefixedValue(field) }
        guard let appID = field(.appID), !appID.isEmpty else { return reject("missing c13=asid,…") }
        guard let pingID = field(.pingID), !pingID.isEmpty, pingID.count <= 128 else { return reject("missing pingid") }
        guard body.utf8.count <= ViewabilityReport.maxBodyBytes else {
            return reject("the body is longer than \(ViewabilityReport.maxBodyBytes) bytes")
        }
        let report: ViewabilityReport
        do {
            report = try JSONDecoder().decode(ViewabilityReport.self, from: Data(body.utf8))
        } catch {
            return reject("the body is not invs/inau/inss/invp/ines series of [value, start offset, start timestamp, duration]")
        }
        return .success(IncomingViewability(
            pingID: pingID, appID: appID, sessionID: field(.sessionID) ?? "", assetID: field(.assetID) ?? "",
            createdAt: Int64(field(.createdAt) ?? "") ?? 0, report: report, body: body))
    }
}
