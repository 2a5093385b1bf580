package import MeterWire

/// One line of the credit report: an asset of an app, with what the census credited to it.
public struct CreditRow: Sendable, Equatable, Codable {
    /// The app id.
    package var appid: String
    /// The asset id.
    package var assetid: String
    /// Content, ad, static or audio.
    package var kind: CreditKind
    /// View pings received.
    package var views: Int64
    /// Seconds credited: the sum of `c27` over distinct pings, each within its kind's bound.
    package var creditedSeconds: Int64
    /// Seconds pings claimed over their kind's bound (``CreditBounds``): not credited.
    package var overBoundSeconds: Int64 = 0
    /// Of those, the seconds played on an OTT device (pings with `c71=ottflg,1`).
    package var ottSeconds: Int64
    /// Distinct (hashed) device ids; devices that send none are not counted.
    package var devices: Int64
    /// Distinct viewing sessions (`c59`).
    package var sessions: Int64
    /// The share of pings flagged as opted out (0…1).
    package var optedOutShare: Double
    /// DTVR, where sessions sent tag pings: the census's credit from their tags and the SDK's
    /// claim in the same sessions (``DTVRTagCheck``); nil for other kinds and for DTVR credited by
    /// duration pings alone.
    package var tagCheck: DTVRTagCheck? = nil
}

/// The census's DTVR credit from tags beside the SDK's own, for the sessions that sent tags
/// (decisions.md T6; docs/census.md §5).
package struct DTVRTagCheck: Sendable, Equatable, Codable {
    /// Seconds the sessions' tags credit: what the row's ``CreditRow/creditedSeconds`` counts for them.
    package var tagSeconds: Int64
    /// Seconds the SDK's DTVR pings of the same sessions claimed (within their bounds).
    package var sdkSeconds: Int64
    /// Sessions whose two figures differ by more than ``DTVRAgreement/tolerance``.
    package var disagreeingSessions: Int64

    /// Creates a check.
    package init(tagSeconds: Int64, sdkSeconds: Int64, disagreeingSessions: Int64) {
        self.tagSeconds = tagSeconds
        self.sdkSeconds = sdkSeconds
        self.disagreeingSessions = disagreeingSessions
    }

    /// The check of the tag totals a report row's sessions add up to.
    init(_ totals: DTVRTagTotals) {
        self.init(tagSeconds: totals.tagSeconds, sdkSeconds: totals.sdkSeconds, disagreeingSessions: totals.disagreeingSessions)
    }

    /// `tags 120 s, SDK 180 s, 1 session differs` for a table cell.
    package var summary: String {
        "tags \(tagSeconds) s, SDK \(sdkSeconds) s"
            + (disagreeingSessions > 0 ? ", \(disagreeingSessions) session\(disagreeingSessions == 1 ? "" : "s") differ\(disagreeingSessions == 1 ? "s" : "")" : "")
    }
}

/// One line of the DTVR report: a source (CID) of an app, under the channel name it was viewed as.
package struct DTVRRow: Sendable, Equatable, Codable {
    /// The app id.
    package var appid: String
    /// The channel name (`asn`).
    package var channel: String
    /// The CID credited (the tags' FD CID, else PC CID).
    package var cid: String
    /// View pings received.
    package var views: Int64
    /// Seconds credited from the tags.
    package var creditedSeconds: Int64
    /// Distinct (hashed) device ids.
    package var devices: Int64
    /// Distinct viewing sessions.
    package var sessions: Int64
    /// The sessions that sent tag pings: their tag credit against the SDK's; nil when none did.
    package var tagCheck: DTVRTagCheck? = nil
}

/// What the report covers: an app (or all) and a window on the pings' creation time.
package struct ReportQuery: Sendable, Equatable {
    /// Only this app, or every app.
    package var appid: String?
    /// Pings created at or after this Unix second.
    package var from: Int64?
    /// Pings created before this Unix second.
    package var to: Int64?
    /// Leave out the sessions the session rule flags (``SessionPlausibility``): an operator's
    /// choice (`meter serve --exclude-flagged`, `meter report --exclude-flagged`).
    package var excludeFlagged: Bool

    /// Creates a query.
    package init(appid: String? = nil, from: Int64? = nil, to: Int64? = nil, excludeFlagged: Bool = false) {
        self.appid = appid
        self.from = from
        self.to = to
        self.excludeFlagged = excludeFlagged
    }
}
