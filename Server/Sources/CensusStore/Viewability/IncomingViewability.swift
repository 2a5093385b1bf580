import Foundation
package import MeterWire

/// A viewability ping as the census stores it: the identifying fields of its query and the
/// seconds its series say were viewable and audible (docs/protocol.md §2g).
package struct IncomingViewability: Sendable, Equatable {
    package var pingID: String
    package var appID: String
    package var sessionID: String
    package var assetID: String
    package var createdAt: Int64
    package var report: ViewabilityReport
    package var body: String
    /// The seconds credited from ``report``, each within ``bound(interval:)``.
    package var measuredSeconds: Int64 = 0
    package var viewableSeconds: Int64 = 0
    package var audibleSeconds: Int64 = 0
    /// Measured seconds the report claimed beyond its bound: stored, never credited.
    package var overBoundSeconds: Int64 = 0

    /// The key the ping is stored under (``PingKey``).
    package var key: String { PingKey.scoped(appID: appID, pingID: pingID) }

    /// Holds the report's seconds to what one viewability ping can cover: it follows a duration
    /// ping of its asset, so one duration-ping interval (``CreditBounds``); viewable and audible
    /// seconds no more than the measured ones.
    package mutating func bound(interval: Int64) {
        let limit = interval.saturatingAdd(CreditBounds.tolerance(for: interval))
        let measured = report.measuredSeconds
        measuredSeconds = min(measured, limit)
        overBoundSeconds = measured - measuredSeconds
        viewableSeconds = min(report.viewableSeconds, measuredSeconds)
        audibleSeconds = min(report.audibleSeconds, limit)
    }

    /// Reads `POST /cgi-bin/gn/viewability?<query>` with its JSON `body`.
    package static func parse(query: Substring, body: String) -> Result<IncomingViewability, PingRejection> {
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
            return .failure(PingRejection(reason: "viewability: the body is longer than \(ViewabilityReport.maxBodyBytes) bytes",
                                          category: .tooLarge))
        }
        let report: ViewabilityReport
        do {
            report = try JSONDecoder().decode(ViewabilityReport.self, from: Data(body.utf8))
        } catch {
            return reject("the body is not invs/inau/inss/invp/ines series of [value, start offset, start timestamp, duration]")
        }
        guard appID.utf8.count <= ConfigRequestField.maxAppIDLength else { return reject("c13 must be an appid of 1 to \(ConfigRequestField.maxAppIDLength) bytes") }
        var ping = IncomingViewability(
            pingID: pingID, appID: appID, sessionID: field(.sessionID) ?? "", assetID: field(.assetID) ?? "",
            createdAt: Int64(field(.createdAt) ?? "") ?? 0, report: report, body: body)
        ping.bound(interval: ConfigAnswer.intervalRange.upperBound)
        return .success(ping)
    }
}
