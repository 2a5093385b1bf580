import CensusStore
import Foundation
import MeterWire

/// The dashboard's script, served as one file at `/dashboard.js`: its parts (`Scripts/*.js`, one
/// per pane, in the census's resources), in the order they run, after the wire contract's names
/// they read. Everything a ping or a trace carries is attacker-controlled: every part builds
/// elements with `textContent` and attributes through the DOM, never `innerHTML`, and no stored
/// value may make it throw: a time no `Date` can hold shows as the number it is, long text is cut
/// with an ellipsis (in full in its tooltip, up to a bound), lists of any length are filled
/// without spreading them into one call's arguments.
enum DashboardScript {
    /// The parts, in the order they run.
    static let parts = ["core", "pings", "sessions", "session", "timeline", "audience", "side"]

    /// The whole script; nil when the census's resources are missing (a binary copied without its
    /// `.resources` folder), which the route answers with 404 and the reason, as the browser
    /// SDK's files are.
    static let js: String? = {
        var script = [
            "\"use strict\";",
            "const wireNames = {pingType: \"\(PingField.pingType.name)\", assetID: \"\(PingField.assetID.name)\"};",
        ]
        for part in parts {
            guard let url = Bundle.module.url(forResource: part, withExtension: "js", subdirectory: "Scripts"),
                  let text = try? String(contentsOf: url, encoding: .utf8)
            else { return nil }
            script.append(text)
        }
        return script.joined(separator: "\n")
    }()
}
