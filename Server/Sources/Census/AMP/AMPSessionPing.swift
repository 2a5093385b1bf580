import MeterWire

/// AMP's `session` request, sent with the first `cloudapi` request of a page view:
/// `GET /cgi-bin/gn?prd=session&c13=asid,P<apid>&sessionId=<clientId>_<pageViewId>&pingtype=4&…`.
/// It credits nothing (the cloud-API events do); the census checks and counts it.
package struct AMPSessionPing: Sendable, Equatable {
    /// The `prd` value that marks it.
    package static let product = "session"

    /// The appid (`P` + apid).
    package var appID: String
    /// `<clientId>_<pageViewId>`.
    package var visit: String

    /// Reads a `prd=session` query's parameters.
    package static func parse(_ values: [String: String]) -> Result<AMPSessionPing, PingRejection> {
        let raw = values[PingField.appID.name] ?? ""
        let asid = raw.hasPrefix(PingField.appID.prefix) ? String(raw.dropFirst(PingField.appID.prefix.count)) : ""
        guard !asid.isEmpty, asid.count <= ConfigRequestField.maxAppIDLength else {
            return .failure(PingRejection(reason: "AMP session: c13 must be asid,P<apid>"))
        }
        guard let visit = values[PingField.browserSessionID.name], !visit.isEmpty, visit.count <= AMPCloudEvent.maxVisitLength else {
            return .failure(PingRejection(reason: "AMP session: sessionId must be <clientId>_<pageViewId>"))
        }
        return .success(AMPSessionPing(appID: asid, visit: visit))
    }
}
