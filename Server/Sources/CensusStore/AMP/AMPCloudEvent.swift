import Foundation
import MeterWire

/// One request of Google AMP's `nielsen` analytics vendor (docs/protocol.md §2e): the `cloudapi`
/// request `GET /nmapi/v2/<apid>/<clientId>_<pageViewId>/a?b=<JSON>`, fired when the page becomes
/// visible, every 10 s while it is, and when it is hidden. Validated here; credited later by
/// replaying the page view's events through the engine (``AMPPageViewReplay``).
package struct AMPCloudEvent: Sendable, Equatable {
    /// The longest `b=` body accepted, in bytes (the vendor's JSON is well under 2 KB).
    package static let maxBodyBytes = 8192
    /// The longest `<clientId>_<pageViewId>` accepted.
    package static let maxVisitLength = 256

    /// The apid, as AMP sends it: the GUID without the `P`.
    package var apid: String
    /// `<clientId>_<pageViewId>`: one page view of one browser.
    package var visit: String
    /// The `b=` JSON, decoded once from the URL.
    package var body: String
    /// `utc`: when AMP built the request, in milliseconds since 1970.
    package var utcMillis: Int64
    /// `data.hidden`: the page was hidden (`backgroundState` 1).
    package var hidden: Bool
    /// `index`: AMP's request count.
    package var index: Int64

    /// The appid the page view is credited to: `P` + apid (the guide: AMP's apid has no `P`).
    package var appID: String { "P" + apid }
    /// The key of the page view: apid and visit.
    package var pageView: String { apid + "/" + visit }
    /// The browser's id (AMP's `CLIENT_ID(imrworldwide)`): the visit before its last `_`.
    package var clientID: String { visit.lastIndex(of: "_").map { String(visit[..<$0]) } ?? visit }

    /// Reads and checks a request; a rejection names what is wrong.
    package static func parse(apid: String, visit: String, body: String?) -> Result<AMPCloudEvent, PingRejection> {
        func reject(_ reason: String) -> Result<AMPCloudEvent, PingRejection> { .failure(PingRejection(reason: "AMP cloud API: \(reason)")) }
        guard !apid.isEmpty, apid.count <= ConfigRequestField.maxAppIDLength,
              apid.allSatisfy({ $0.isASCII && ($0.isHexDigit || $0 == "-") })
        else { return reject("the apid must be the GUID Nielsen assigned, without the P") }
        guard !visit.isEmpty, visit.count <= maxVisitLength else {
            return reject("the session must be <clientId>_<pageViewId>, at most \(maxVisitLength) characters")
        }
        guard let body, !body.isEmpty else { return reject("no b= parameter") }
        guard body.utf8.count <= maxBodyBytes else {
            return .failure(PingRejection(reason: "AMP cloud API: b= is longer than \(maxBodyBytes) bytes", category: .tooLarge))
        }
        // Raw or as a JSON escape: no AMP request carries one, and PostgreSQL's text cannot store it.
        guard !body.utf8.contains(0), !body.lowercased().contains("\\u0000") else { return reject("b= contains a NUL character") }
        guard let object = (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any] else {
            return reject("b= is not a JSON object")
        }
        if let device = object["devInfo"] as? [String: Any], let bodyApid = device["apid"] as? String, bodyApid != apid {
            return reject("devInfo.apid \"\(bodyApid)\" is not the apid of the path")
        }
        guard (object["type"] as? String) == "static" else { return reject("type must be \"static\"") }
        guard let page = (object["metadata"] as? [String: Any])?["static"] as? [String: Any],
              let section = page["section"] as? String, !section.isEmpty
        else { return reject("metadata.static.section is missing") }
        guard let utc = number(object["utc"]), utc > 0 else { return reject("utc must be milliseconds since 1970") }
        let hidden = (object["data"] as? [String: Any]).flatMap { number($0["hidden"]) } ?? 0
        return .success(AMPCloudEvent(
            apid: apid, visit: visit, body: body, utcMillis: utc, hidden: hidden == 1, index: number(object["index"]) ?? 0))
    }

    /// A whole number given as a JSON string (as AMP substitutes it) or number.
    static func number(_ value: Any?) -> Int64? {
        if let text = value as? String { return Int64(text) }
        if let number = value as? NSNumber, !(value is String) { return number.int64Value }
        return nil
    }
}
