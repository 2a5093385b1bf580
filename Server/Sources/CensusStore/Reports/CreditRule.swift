import MeterWire
import SQLKit

/// A stored ping's field the crediting rule groups by: its column in `census_pings` and its value
/// in a ``StoredPing``, so that the report's SQL and ``SessionCredit`` group by the same things.
/// Read only through the keys (``CreditLine``, ``ChannelLine``, ``TagGroup``): no source outside
/// the rule builds a key of its own (`CreditKeyTests`).
enum CreditColumn: Sendable, CaseIterable {
    case appid, kind, asset, channel, session

    /// The column of `census_pings`.
    var name: String {
        switch self {
        case .appid: "appid"
        case .kind: "credit_kind"
        case .asset: "asset_id"
        case .channel: "channel_name"
        case .session: "session_id"
        }
    }

    /// The value a stored ping has in this column, as the database holds it.
    func value(of ping: StoredPing) -> String {
        switch self {
        case .appid: ping.appid
        case .kind: ping.kind.rawValue
        case .asset: ping.assetid
        case .channel: ping.channel
        case .session: ping.session
        }
    }
}

/// The census's crediting rule for stored pings, stated once (census-decisions.md S38).
///
/// The credit report applies it to every ping of its window in SQL (``ReportStore/report(_:)``: its
/// `GROUP BY`, its sum and its DTVR tag walk are built from these members and the keys'
/// columns), and ``SessionCredit``
/// applies it in Swift to the pings of one session, for the dashboard's credit table and timeline.
/// What the rule does not say is the report's scope: its window on `c61` and leaving out flagged
/// sessions (``ReportQuery``).
enum CreditRule {
    // A credit line is a ``CreditLine``; DTVR is credited from tags per ``TagGroup`` (decisions.md T6).

    /// The seconds a ping credits: its `c27` as stored, within its kind's bound (``CreditBounds``
    /// moved the rest to `over_bound_seconds` at intake; a ping over a day was refused there).
    static let secondsColumn = "credited_seconds"

    /// The kind credited from tags where a session sent them.
    static let taggedKind = CreditKind.dtvr

    /// The ping type of a DTVR tag ping (`at=id3`); it credits nothing itself (``CreditBounds/tagPingBound``).
    static let tagType = PingKind.tag.wireValue

    /// The column of a ping's type (`at`, as ``PingKind/wireValue``).
    static let typeColumn = "ping_type"

    /// Whether a ping is a tag, with the type written out: the condition of the index of tag pings
    /// (`census_pings_tags`), which an engine uses only for a query that states it as the index
    /// does, not with a bound value (census-decisions.md S55).
    static let isTagSQL = "\(typeColumn) = '\(tagType)'"

    /// Whether a ping is an SDK claim the tags of its session replace where the session sent
    /// them: a DTVR ping other than a tag.
    static let isClaimSQL = "\(CreditColumn.kind.name) = '\(taggedKind.rawValue)' AND \(typeColumn) <> '\(tagType)'"

    /// The views a group of pings counts: its `at=view` pings.
    static let viewsSQL = SQLRaw("CAST(SUM(CASE WHEN \(typeColumn) = '\(PingKind.view.wireValue)' THEN 1 ELSE 0 END) AS BIGINT)")

    /// What makes two pings one: the stored key (``PingKey``), the store's primary key, so a ping
    /// delivered twice is stored, and counted, once.
    static func key(of ping: StoredPing) -> String { PingKey.scoped(appID: ping.appid, pingID: ping.pingID) }

    /// A line's seconds: the sum of its pings' seconds (`sdkSum`), with the claim of the viewing
    /// sessions that sent tags replaced by what their tags credit; without the tag seconds of
    /// sessions the session rule flags when `excludingFlagged` (their pings the SQL rule flags are
    /// left out of `sdkSum` already).
    static func creditedSeconds(_ sdkSum: Int64, replacing tags: DTVRTagTotals, excludingFlagged: Bool) -> Int64 {
        let tagSeconds = excludingFlagged ? max(0, tags.tagSeconds.saturatingAdd(-tags.flaggedTagSeconds)) : tags.tagSeconds
        return max(0, sdkSum.saturatingAdd(-min(tags.sdkSeconds, sdkSum)).saturatingAdd(tagSeconds))
    }
}
