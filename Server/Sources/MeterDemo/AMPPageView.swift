import Foundation
import MeterWire

/// The requests Google AMP's `nielsen` analytics vendor sends for one page view, built as
/// amp-analytics builds them: the vendor's request templates
/// (`extensions/amp-analytics/0.1/vendors/nielsen.json` in ampproject/amphtml) with the Italy AMP
/// guide's vars, each value substituted with `encodeURIComponent`, the census standing in for
/// `uaid-linkage.imrworldwide.com` and `cloudapi.imrworldwide.com`.
///
/// Triggers: `visible` sends `session` and `cloudapi`; a timer every 10 s (not immediate) and
/// `hidden` send `cloudapi`, with `backgroundState` 1 when hidden.
package struct AMPPageView: Sendable {
    /// The guide's vars: `apid` (no `P`), `apn`, `apv`, `section`, `segA`, `segB`, `segC`.
    package var apid: String
    package var apn = "AppMeter Demo AMP"
    package var apv = "1.0"
    package var section: String
    package var segA = "NA"
    package var segB = "NA"
    package var segC = "Google AMP"
    /// `CLIENT_ID(imrworldwide)`: the browser's id.
    package var clientID: String
    /// `PAGE_VIEW_ID`.
    package var pageViewID: String
    /// `AMPDOC_URL`.
    package var ampdocURL = "https://amp.example.com/articolo.amp.html"

    /// The vendor's timer interval, in seconds.
    package static let timerInterval = 10

    /// Creates a page view with fresh client and page-view ids.
    package init(apid: String, section: String, clientID: String = "amp-" + UUID().uuidString.lowercased(),
                pageViewID: String = String(Int.random(in: 1000...9999))) {
        self.apid = apid
        self.section = section
        self.clientID = clientID
        self.pageViewID = pageViewID
    }

    /// `${sessionId}_${pageViewId}`.
    package var visit: String { clientID + "_" + pageViewID }

    /// The `session` request.
    package func sessionURL(base: String, timestamp: Int64, random: UInt32) -> String {
        "\(base)\(WireRoute.ping)?prd=session&c13=asid,P\(encode(apid))&sessionId=\(encode(visit))&pingtype=4&enc=false"
            + "&c61=createtm,\(timestamp)&rnd=\(random)"
    }

    /// The `cloudapi` request, at `timestamp` (ms), the tag's `requestCount`-th, hidden or not.
    package func cloudAPIURL(base: String, timestamp: Int64, requestCount: Int, hidden: Bool) -> String {
        let background = hidden ? "1" : "0"
        // The template's literal JSON, with each var as AMP substitutes it (no JSON escaping).
        let body = #"{"devInfo":{"devId":"\#(visit)","apn":"\#(apn)","apv":"\#(apv)","apid":"\#(apid)"},"#
            + #""metadata":{"static":{"type":"static","section":"\#(section)","assetid":"\#(pageViewID)","#
            + #""segA":"\#(segA)","segB":"\#(segB)","segC":"\#(segC)","adModel":"0","dataSrc":"cms"},"content":{},"ad":{}},"#
            + #""event":"playhead","position":"\#(timestamp)","#
            + #""data":{"hidden":"\#(background)","blur":"\#(background)","position":"\#(timestamp)"},"#
            + #""type":"static","utc":"\#(timestamp)","index":"\#(requestCount)","pageURL":"\#(ampdocURL)"}"#
        return base + WireRoute.ampEvent(apid: encode(apid), visit: encode(visit)) + "?b=" + encode(body)
    }

    /// Every request of the page view, in order, when it is visible from `start` (ms) for
    /// `visibleSeconds` and then hidden: session and cloudapi, one cloudapi per full timer interval,
    /// and cloudapi on hidden. Each with the time it is sent.
    package func requests(base: String, start: Int64, visibleSeconds: Int) -> [(url: String, at: Int64)] {
        var requests = [(sessionURL(base: base, timestamp: start, random: UInt32.random(in: 0...UInt32.max)), start)]
        var count = 1
        requests.append((cloudAPIURL(base: base, timestamp: start, requestCount: count, hidden: false), start))
        for elapsed in stride(from: Self.timerInterval, through: visibleSeconds, by: Self.timerInterval) where elapsed < visibleSeconds {
            count += 1
            let time = start + Int64(elapsed) * 1000
            requests.append((cloudAPIURL(base: base, timestamp: time, requestCount: count, hidden: false), time))
        }
        count += 1
        let end = start + Int64(visibleSeconds) * 1000
        requests.append((cloudAPIURL(base: base, timestamp: end, requestCount: count, hidden: true), end))
        return requests
    }

    /// `encodeURIComponent`: everything but `A–Z a–z 0–9 - _ . ! ~ * ' ( )` percent-encoded as UTF-8.
    func encode(_ value: String) -> String {
        value.addingPercentEncoding(withAllowedCharacters: Self.uriComponent) ?? ""
    }

    private static let uriComponent = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.!~*'()")
}
