import MeterWire

/// What a set of stored pings credits one asset: a line of the credit report, for one session.
public struct AssetCredit: Sendable, Equatable, Codable {
    /// The app id.
    public var appid: String
    /// Content, ad, static, audio, station, DTVR or app.
    public var kind: CreditKind
    /// The asset id (the CID for DTVR).
    public var assetid: String
    /// Seconds credited, as ``PingStore/report(_:)`` credits them: `c27` over distinct pings, and
    /// for DTVR what the tags credit in the viewing sessions that sent tags (decisions.md T6).
    public var creditedSeconds: Int64
    /// Seconds the SDK's own pings claimed (`c27`, within their bounds), tags aside.
    public var sdkSeconds: Int64
    /// DTVR: seconds the tags credit, where tags were sent; nil otherwise.
    public var tagSeconds: Int64?
}

/// The one crediting rule the census applies to stored pings, per app × kind × asset.
///
/// The credit report sums the same figures over every session in SQL (``PingStore/report(_:)``,
/// whose DTVR tag walk is ``TagCredit``, as here); the dashboard's timeline and its per-session
/// credit come from this function, so a session's seconds add up to the report's.
public enum SessionCredit {
    /// The credit `pings` earn, in the report's row order (app, kind, asset). A ping id seen twice
    /// counts once, as the store keeps one row per id.
    public static func assets(of pings: [StoredPing]) -> [AssetCredit] {
        var seen = Set<String>()
        var rows: [Key: AssetCredit] = [:]
        // DTVR per viewing session and channel, as the report walks tags (PingStore+DTVRTags).
        var tags: [TagKey: [StoredTag]] = [:]
        var claims: [TagKey: Int64] = [:]
        let tag = PingKind.tag.wireValue
        for ping in pings where seen.insert(ping.appid + "\u{0}" + ping.pingID).inserted {
            let key = Key(appid: ping.appid, kind: ping.kind, assetid: ping.assetid)
            rows[key, default: AssetCredit(appid: ping.appid, kind: ping.kind, assetid: ping.assetid,
                                           creditedSeconds: 0, sdkSeconds: 0)].sdkSeconds.saturate(ping.creditedSeconds)
            guard ping.kind == .dtvr else { continue }
            let group = TagKey(asset: key, channel: ping.channel, session: ping.session)
            if ping.pingType == tag {
                tags[group, default: []].append(StoredTag.read(rawQuery: ping.rawQuery, createdAt: ping.createdAt,
                                                               receivedAt: ping.receivedAt, key: ping.pingID))
            } else {
                claims[group, default: 0].saturate(ping.creditedSeconds)
            }
        }
        for (key, row) in rows { rows[key]?.creditedSeconds = row.sdkSeconds }
        for (group, sessionTags) in tags {
            let seconds = TagCredit.seconds(of: sessionTags)
            guard var row = rows[group.asset] else { continue }
            // The session's claim is replaced by its tags' credit, as the report replaces it.
            row.creditedSeconds = max(0, row.creditedSeconds.saturatingAdd(-(claims[group] ?? 0)).saturatingAdd(seconds))
            row.tagSeconds = (row.tagSeconds ?? 0).saturatingAdd(seconds)
            rows[group.asset] = row
        }
        // Byte order, as the report compares text on both databases (decisions.md S18).
        return rows.values.sorted { a, b in
            if a.appid != b.appid { return a.appid.utf8.lexicographicallyPrecedes(b.appid.utf8) }
            if a.kind != b.kind { return a.kind.rawValue.utf8.lexicographicallyPrecedes(b.kind.rawValue.utf8) }
            return a.assetid.utf8.lexicographicallyPrecedes(b.assetid.utf8)
        }
    }

    private struct Key: Hashable {
        var appid: String
        var kind: CreditKind
        var assetid: String
    }

    private struct TagKey: Hashable {
        var asset: Key
        var channel: String
        var session: String
    }
}

private extension Int64 {
    /// Adds without trapping: each stored figure is bounded, a sum of many must not trap either.
    mutating func saturate(_ other: Int64) { self = saturatingAdd(other) }
}
