import AppMeter
import Foundation

/// A transport that records every request and answers with a scripted status (200 by default).
/// Config requests (`/cgi-bin/cfg`) get their own script, falling back to a valid config.
final class RecordingTransport: PingTransport, Sendable {
    private struct State {
        var requests: [TransportRequest] = []
        var script: [TransportOutcome] = []
        var configScript: [TransportOutcome] = []
        var config = #"{"enabled": true, "durationPingInterval": 60}"#
    }

    private let state = Locked(State())

    /// Ping outcomes to return, first to last, before falling back to 200.
    func script(_ outcomes: [TransportOutcome]) {
        state.withLock { $0.script = outcomes }
    }

    /// Config outcomes to return before falling back to `config`.
    func scriptConfig(_ outcomes: [TransportOutcome], then config: String? = nil) {
        state.withLock {
            $0.configScript = outcomes
            if let config { $0.config = config }
        }
    }

    static func config(enabled: Bool = true, interval: Int64 = 60) -> String {
        #"{"enabled": \#(enabled), "durationPingInterval": \#(interval)}"#
    }

    func send(_ request: TransportRequest) async -> TransportOutcome {
        state.withLock { state in
            state.requests.append(request)
            if request.url.path.hasSuffix("/cgi-bin/cfg") {
                return state.configScript.isEmpty
                    ? .response(status: 200, retryAfter: nil, body: Data(state.config.utf8))
                    : state.configScript.removeFirst()
            }
            return state.script.isEmpty ? .response(status: 200, retryAfter: nil, body: Data()) : state.script.removeFirst()
        }
    }

    /// The config requests made.
    var configRequests: [TransportRequest] {
        requests.filter { $0.url.path.hasSuffix("/cgi-bin/cfg") }
    }

    /// Every request made, including failed attempts.
    var requests: [TransportRequest] { state.withLock { $0.requests } }

    /// Every measurement ping sent (`GET /cgi-bin/gn`, and each line of `POST /cgi-bin/gn/batch`),
    /// decoded, in order, including attempts that failed; the app's own pings (`prd=app`) are in
    /// ``appPings``, DTVR tag pings (`at=id3`, one per distinct tag) in ``tagPings``.
    var pings: [DecodedPing] {
        requests.flatMap(DecodedPing.all).filter { $0["prd"] != "app" && $0["at"] != "id3" }
    }

    /// The DTVR tag pings sent (`at=id3`), in order, including attempts that failed.
    var tagPings: [DecodedPing] {
        requests.flatMap(DecodedPing.all).filter { $0["at"] == "id3" }
    }

    /// The app's launch and run-time pings (`prd=app`).
    var appPings: [DecodedPing] {
        requests.flatMap(DecodedPing.all).filter { $0["prd"] == "app" }
    }
}

/// A ping URL split back into its parameters.
struct DecodedPing: CustomStringConvertible {
    let url: String
    let parameters: [(name: String, value: String)]

    init(url: String) {
        self.url = url
        let query = url.split(separator: "?", maxSplits: 1).last.map(String.init) ?? ""
        parameters = query.split(separator: "&").map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return (String(parts[0]), String(parts.count > 1 ? parts[1] : "").removingPercentEncoding ?? "")
        }
    }

    /// The pings a request carries: one for `GET /cgi-bin/gn`, one per line of a batch, none otherwise.
    static func all(in request: TransportRequest) -> [DecodedPing] {
        if request.url.path.hasSuffix("/cgi-bin/gn") { return [DecodedPing(url: request.url.absoluteString)] }
        guard request.url.path.hasSuffix("/cgi-bin/gn/batch"), let body = request.body else { return [] }
        return String(decoding: body, as: UTF8.self).split(separator: "\n").map {
            DecodedPing(url: request.url.absoluteString.replacingOccurrences(of: "/batch", with: "") + "?" + $0)
        }
    }

    subscript(name: String) -> String? { parameters.first { $0.name == name }?.value }

    /// The seconds this ping credits (`c27=cln,N`).
    var credited: Int { Int(self["c27"]?.split(separator: ",").last ?? "") ?? -1 }
    var kind: String { self["at"] ?? "" }
    var assetID: String { self["ai"] ?? "" }
    var assetClass: String { self["c3"] ?? "" }

    /// `view content/vid1 0`, compact for assertions.
    var summary: String { "\(kind) \(assetClass == "st,a" ? "ad" : "content")/\(assetID) \(credited)" }
    var description: String { summary }
}
