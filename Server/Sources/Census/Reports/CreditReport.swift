import MeterWire

/// One line of the credit report: an asset of an app, with what the census credited to it.
public struct CreditRow: Sendable, Equatable, Codable {
    /// The app id.
    public var appid: String
    /// The asset id.
    public var assetid: String
    /// Content, ad, static or audio.
    public var kind: CreditKind
    /// View pings received.
    public var views: Int64
    /// Seconds credited: the sum of `c27` over distinct pings, each within its kind's bound.
    public var creditedSeconds: Int64
    /// Seconds pings claimed over their kind's bound (``CreditBounds``): not credited.
    public var overBoundSeconds: Int64 = 0
    /// Of those, the seconds played on an OTT device (pings with `c71=ottflg,1`).
    public var ottSeconds: Int64
    /// Distinct (hashed) device ids; devices that send none are not counted.
    public var devices: Int64
    /// Distinct viewing sessions (`c59`).
    public var sessions: Int64
    /// The share of pings flagged as opted out (0…1).
    public var optedOutShare: Double
    /// DTVR, where sessions sent tag pings: the census's credit from their tags and the SDK's
    /// claim in the same sessions (``DTVRTagCheck``); nil for other kinds and for DTVR credited by
    /// duration pings alone.
    public var tagCheck: DTVRTagCheck? = nil
}

/// The census's DTVR credit from tags beside the SDK's own, for the sessions that sent tags
/// (decisions.md T6; docs/census.md §5).
public struct DTVRTagCheck: Sendable, Equatable, Codable {
    /// Seconds the sessions' tags credit: what the row's ``CreditRow/creditedSeconds`` counts for them.
    public var tagSeconds: Int64
    /// Seconds the SDK's DTVR pings of the same sessions claimed (within their bounds).
    public var sdkSeconds: Int64
    /// Sessions whose two figures differ by more than ``DTVRAgreement/tolerance``.
    public var disagreeingSessions: Int64

    /// Creates a check.
    public init(tagSeconds: Int64, sdkSeconds: Int64, disagreeingSessions: Int64) {
        self.tagSeconds = tagSeconds
        self.sdkSeconds = sdkSeconds
        self.disagreeingSessions = disagreeingSessions
    }

    /// `tags 120 s, SDK 180 s, 1 session differs` for a table cell.
    var summary: String {
        "tags \(tagSeconds) s, SDK \(sdkSeconds) s"
            + (disagreeingSessions > 0 ? ", \(disagreeingSessions) session\(disagreeingSessions == 1 ? "" : "s") differ\(disagreeingSessions == 1 ? "s" : "")" : "")
    }
}

/// One line of the DTVR report: a source (CID) of an app, under the channel name it was viewed as.
public struct DTVRRow: Sendable, Equatable, Codable {
    /// The app id.
    public var appid: String
    /// The channel name (`asn`).
    public var channel: String
    /// The CID credited (the tags' FD CID, else PC CID).
    public var cid: String
    /// View pings received.
    public var views: Int64
    /// Seconds credited from the tags.
    public var creditedSeconds: Int64
    /// Distinct (hashed) device ids.
    public var devices: Int64
    /// Distinct viewing sessions.
    public var sessions: Int64
    /// The sessions that sent tag pings: their tag credit against the SDK's; nil when none did.
    public var tagCheck: DTVRTagCheck? = nil
}

/// What the report covers: an app (or all) and a window on the pings' creation time.
public struct ReportQuery: Sendable, Equatable {
    /// Only this app, or every app.
    public var appid: String?
    /// Pings created at or after this Unix second.
    public var from: Int64?
    /// Pings created before this Unix second.
    public var to: Int64?
    /// Leave out the sessions the session rule flags (``SessionPlausibility``): an operator's
    /// choice (`meter serve --exclude-flagged`, `meter report --exclude-flagged`).
    public var excludeFlagged: Bool

    /// Creates a query.
    public init(appid: String? = nil, from: Int64? = nil, to: Int64? = nil, excludeFlagged: Bool = false) {
        self.appid = appid
        self.from = from
        self.to = to
        self.excludeFlagged = excludeFlagged
    }
}

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
    public static func render(_ rows: [PlausibilityRow]) -> String {
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
    public static func render(_ rows: [DTVRRow]) -> String {
        let header = ["appid", "channel", "CID", "views", "seconds", "devices", "sessions", "tags s", "SDK s", "differ"]
        let body = rows.map { row in
            [row.appid, row.channel, row.cid, String(row.views), String(row.creditedSeconds), String(row.devices),
             String(row.sessions), row.tagCheck.map { String($0.tagSeconds) } ?? "", row.tagCheck.map { String($0.sdkSeconds) } ?? "",
             row.tagCheck.map { $0.disagreeingSessions > 0 ? "\($0.disagreeingSessions) session\($0.disagreeingSessions == 1 ? "" : "s")" : "" } ?? ""]
        }
        return TextTable.render([header] + body, rightAligned: [3, 4, 5, 6, 7, 8], rule: true)
    }

    /// Viewability rows as a table with a header line.
    public static func render(_ rows: [ViewabilityRow]) -> String {
        let header = ["appid", "session", "asset", "pings", "measured s", "viewable s", "audible s", "over bound s", "flagged"]
        let body = rows.map { row in
            [row.appid, row.session, row.assetid, String(row.pings), String(row.measuredSeconds),
             String(row.viewableSeconds), String(row.audibleSeconds), String(row.overBoundSeconds), row.flagged ? "flagged" : ""]
        }
        return TextTable.render([header] + body, rightAligned: [3, 4, 5, 6, 7], rule: true)
    }
}
