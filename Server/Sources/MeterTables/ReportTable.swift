public import CensusStore
import MeterContract

/// Renders report rows as an aligned terminal table.
public enum ReportTable {
    /// The rows as a table with a header line.
    public static func render(_ rows: [CreditRow]) -> String {
        let checked = rows.contains { $0.tagCheck != nil }
        let header = ["appid", "asset", "kind", "views", "seconds", "over bound", "on OTT", "devices", "sessions", "opted out"]
            + (checked ? ["DTVR tags against SDK"] : [])
        let body = rows.map { row in
            [row.appid, row.assetid, row.kind.rawValue, String(row.views), String(row.creditedSeconds), String(row.overBoundSeconds),
             String(row.ottSeconds), String(row.devices), String(row.sessions), percent(row.optedOutShare)]
                + (checked ? [row.tagCheck?.summary ?? ""] : [])
        }
        return TextTable.render([header] + body, rightAligned: [3, 4, 5, 6, 7, 8, 9], rule: true)
            + (rows.isEmpty ? "\n(no pings)" : "")
    }

    /// A share as a whole percentage; one no `Int` holds (NaN, infinite, absurd) as it is,
    /// where `Int(_:)` would trap.
    static func percent(_ share: Double) -> String {
        let percent = (share * 100).rounded()
        guard percent.isFinite, abs(percent) < 1e15 else { return "\(share)" }
        return "\(Int(percent))%"
    }

    /// Plausibility rows as a table with a header line: what was not taken at face value, per app.
    package static func render(_ rows: [PlausibilityRow]) -> String {
        // Viewability's columns only where a session's viewability pings are flagged.
        let viewability = rows.contains { $0.flaggedViewabilitySessions > 0 }
        let header = ["appid", "credited s", "over bound s", "flagged s", "flagged sessions"]
            + (viewability ? ["flagged viewable s", "flagged audible s", "flagged viewability sessions"] : [])
        let body = rows.map { row in
            [row.appid, String(row.creditedSeconds), String(row.overBoundSeconds), String(row.flaggedSeconds),
             String(row.flaggedSessions)]
                + (viewability ? [String(row.flaggedViewableSeconds), String(row.flaggedAudibleSeconds),
                                  String(row.flaggedViewabilitySessions)] : [])
        }
        return TextTable.render([header] + body, rightAligned: viewability ? [1, 2, 3, 4, 5, 6, 7] : [1, 2, 3, 4], rule: true)
    }

    /// DTVR rows as a table with a header line.
    package static func render(_ rows: [DTVRRow]) -> String {
        let header = ["appid", "channel", "CID", "views", "seconds", "devices", "sessions", "tags s", "SDK s", "differ"]
        let body = rows.map { row in
            [row.appid, row.channel, row.cid, String(row.views), String(row.creditedSeconds), String(row.devices),
             String(row.sessions), row.tagCheck.map { String($0.tagSeconds) } ?? "", row.tagCheck.map { String($0.sdkSeconds) } ?? "",
             row.tagCheck.map { $0.disagreeingSessions > 0 ? "\($0.disagreeingSessions) session\($0.disagreeingSessions == 1 ? "" : "s")" : "" } ?? ""]
        }
        return TextTable.render([header] + body, rightAligned: [3, 4, 5, 6, 7, 8], rule: true)
    }

    /// Viewability rows as a table with a header line.
    package static func render(_ rows: [ViewabilityRow]) -> String {
        let header = ["appid", "session", "asset", "pings", "measured s", "viewable s", "audible s", "over bound s", "flagged"]
        let body = rows.map { row in
            [row.appid, row.session, row.assetid, String(row.pings), String(row.measuredSeconds),
             String(row.viewableSeconds), String(row.audibleSeconds), String(row.overBoundSeconds), row.flagged ? "flagged" : ""]
        }
        return TextTable.render([header] + body, rightAligned: [3, 4, 5, 6, 7], rule: true)
    }
}
