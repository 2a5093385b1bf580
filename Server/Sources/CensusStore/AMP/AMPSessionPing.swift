package import MeterWire

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

    /// Reads a `prd=session` query, as the census reads every ping (``PingQuery``: a NUL, a broken
    /// escape or a field given twice with two values refused it already).
    package static func parse(_ query: PingQuery) -> Result<AMPSessionPing, PingRejection> {
        let asid = query.unprefixedValue(.appID) ?? ""
        guard !asid.isEmpty, asid.count <= ConfigRequestField.maxAppIDLength else {
            return .failure(PingRejection(reason: "AMP session: c13 must be asid,P<apid>"))
        }
        guard let visit = query.value(.browserSessionID), !visit.isEmpty, visit.count <= AMPCloudEvent.maxVisitLength else {
            return .failure(PingRejection(reason: "AMP session: sessionId must be <clientId>_<pageViewId>"))
        }
        return .success(AMPSessionPing(appID: asid, visit: visit))
    }
}
