package import MeterWire

/// The timeline's seconds as the report credits them (``SessionCredit``).
extension SessionTimeline {
    /// `segments` with each asset's credit (``AssetCredit/creditedSeconds``) shared out over that
    /// asset's segments, so that they add up to it exactly, and a segment drawn from the pings'
    /// creation times for each credited asset no traced call began (the simplified API's
    /// `trackEvent`, Google AMP's page views, a ping a later call built).
    ///
    /// A segment's share follows what the pings built in it claimed (their `c27`), else its length:
    /// DTVR is credited from the tags of the whole viewing session, not ping by ping. Segments and
    /// credit rows are each walked once; `stored` and `entries` once more for the drawn segments.
    package static func credited(_ segments: [TimelineSegment], credit: [AssetCredit], stored: [StoredPing],
                                entries: [CallTraceEntry]) -> [TimelineSegment] {
        var segments = segments
        // What the pings built in each segment's calls claimed for its asset, before sharing out.
        let claimed = segments.map(\.creditedSeconds)
        var byAsset: [String: [Int]] = [:]
        for (index, segment) in segments.enumerated() where segment.type != "pause" {
            byAsset[key(segment.assetid, isAd: isAd(segment.type)), default: []].append(index)
            segments[index].creditedSeconds = 0
        }
        var drawn: [TimelineSegment] = []
        for row in credit {
            guard let indices = byAsset[key(row.assetid, isAd: row.kind == .ad)] else {
                if let segment = drawnSegment(row, stored: stored, entries: entries) { drawn.append(segment) }
                continue
            }
            let shares = share(row.creditedSeconds, weights: indices.map { index in
                row.kind == .dtvr ? 0 : claimed[index]
            }, lengths: indices.map { max(0, segments[$0].end - segments[$0].start) })
            for (index, seconds) in zip(indices, shares) { segments[index].creditedSeconds = seconds }
        }
        // Stable: drawn segments after the traced ones that start with them.
        return (segments + drawn).enumerated().sorted { ($0.element.start, $0.offset) < ($1.element.start, $1.offset) }.map(\.element)
    }

    /// `total` split in proportion to `weights` (else `lengths`, else evenly); the last takes what
    /// rounding leaves, so the parts add up to `total`.
    static func share(_ total: Int64, weights: [Int64], lengths: [Double]) -> [Int64] {
        guard !weights.isEmpty else { return [] }
        let basis: [Double] = weights.contains { $0 > 0 } ? weights.map { Double(max(0, $0)) }
            : lengths.contains { $0 > 0 } ? lengths : Array(repeating: 1, count: weights.count)
        let sum = basis.reduce(0, +)
        var parts = basis.dropLast().map { part -> Int64 in
            let value = (Double(total) * part / sum).rounded(.down)
            return value.isFinite && abs(value) < 9e18 ? Int64(value) : 0
        }
        parts.append(total.saturatingAdd(-parts.reduce(0) { $0.saturatingAdd($1) }))
        return parts
    }

    /// A segment for a credited asset no call began: from its first ping's creation to its last
    /// (at least the seconds it was credited), at the calls that built them, if any were traced.
    private static func drawnSegment(_ row: AssetCredit, stored: [StoredPing], entries: [CallTraceEntry]) -> TimelineSegment? {
        let pings = stored.filter { $0.appid == row.appid && $0.kind == row.kind && $0.assetid == row.assetid }
        guard let first = pings.map(\.createdAt).min(), let last = pings.map(\.createdAt).max() else { return nil }
        let ids = Set(pings.map(\.pingID))
        let seqs = entries.filter { $0.pings.contains { ids.contains($0.id) } }.map(\.seq)
        let start = Double(first)
        let end = max(Double(last), start + Double(max(0, min(row.creditedSeconds, 86_400))))
        let type = row.kind == .station ? "radio" : row.kind.rawValue
        return TimelineSegment(type: type, assetid: row.assetid, start: start, end: end, fromSeq: seqs.min() ?? -1,
                               toSeq: seqs.max() ?? -1, reports: 0, creditedSeconds: row.creditedSeconds)
    }

    private static func key(_ assetid: String, isAd: Bool) -> String { (isAd ? "ad\u{0}" : "\u{0}") + assetid }

    static func isAd(_ type: String) -> Bool { ["preroll", "midroll", "postroll", "ad"].contains(type) }
}
