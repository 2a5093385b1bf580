package import MeterWire

/// What a set of stored pings credits one asset: a line of the credit report, for one session.
package struct AssetCredit: Sendable, Equatable, Codable {
    /// The app id.
    package var appid: String
    /// Content, ad, static, audio, station, DTVR or app.
    package var kind: CreditKind
    /// The asset id (the CID for DTVR).
    package var assetid: String
    /// Seconds credited, as ``ReportStore/report(_:)`` credits them: `c27` over distinct pings, and
    /// for DTVR what the tags credit in the viewing sessions that sent tags (decisions.md T6).
    package var creditedSeconds: Int64
    /// Seconds the SDK's own pings claimed (`c27`, within their bounds), tags aside.
    package var sdkSeconds: Int64
    /// DTVR: seconds the tags credit, where tags were sent; nil otherwise.
    package var tagSeconds: Int64?
}

/// The crediting rule (``CreditRule``) applied to one session's stored pings, per app × kind × asset.
///
/// The credit report applies the same rule to every session at once in SQL (``ReportStore/report(_:)``);
/// the dashboard's timeline and its per-session credit come from this function, so a session's
/// seconds add up to the report's (census-decisions.md S38; `CreditRuleAgreementTests` fails if
/// they ever differ).
package enum SessionCredit {
    /// The credit `pings` earn, in the report's row order (app, kind, asset). A ping stored twice
    /// counts once (``CreditRule/key(of:)``).
    package static func assets(of pings: [StoredPing]) -> [AssetCredit] {
        var seen = Set<String>()
        var rows: [CreditLine: AssetCredit] = [:]
        // DTVR per tag group (app, channel, CID, viewing session), as the report walks tags.
        var tags: [TagGroup: [StoredTag]] = [:]
        var claims: [TagGroup: Int64] = [:]
        for ping in pings where seen.insert(CreditRule.key(of: ping)).inserted {
            let line = CreditLine(reading: ping.creditText)
            rows[line, default: AssetCredit(appid: line.appid, kind: line.kind, assetid: line.assetid,
                                            creditedSeconds: 0, sdkSeconds: 0)].sdkSeconds.saturate(ping.creditedSeconds)
            guard line.kind == CreditRule.taggedKind else { continue }
            let group = TagGroup(reading: ping.creditText)
            if ping.pingType == CreditRule.tagType {
                tags[group, default: []].append(StoredTag.read(rawQuery: ping.rawQuery, createdAt: ping.createdAt,
                                                               receivedAt: ping.receivedAt, key: CreditRule.key(of: ping)))
            } else {
                claims[group, default: 0].saturate(ping.creditedSeconds)
            }
        }
        // The tagged sessions' totals per line, added up as the report adds them (DTVRTagTotals).
        var totals: [CreditLine: DTVRTagTotals] = [:]
        for (group, sessionTags) in tags {
            var session = DTVRTaggedSession(group: group)
            session.tagSeconds = TagCredit.seconds(of: sessionTags)
            session.sdkSeconds = claims[group] ?? 0
            totals[group.line, default: .init()].add(session)
        }
        for (key, row) in rows {
            var row = row
            row.creditedSeconds = totals[key].map { CreditRule.creditedSeconds(row.sdkSeconds, replacing: $0, excludingFlagged: false) }
                ?? row.sdkSeconds
            row.tagSeconds = totals[key]?.tagSeconds
            rows[key] = row
        }
        // Byte order, as the report compares text on both databases (decisions.md S18).
        return rows.values.sorted { a, b in
            if a.appid != b.appid { return a.appid.utf8.lexicographicallyPrecedes(b.appid.utf8) }
            if a.kind != b.kind { return a.kind.rawValue.utf8.lexicographicallyPrecedes(b.kind.rawValue.utf8) }
            return a.assetid.utf8.lexicographicallyPrecedes(b.assetid.utf8)
        }
    }
}

private extension Int64 {
    /// Adds without trapping: each stored figure is bounded, a sum of many must not trap either.
    mutating func saturate(_ other: Int64) { self = saturatingAdd(other) }
}
