public import MeterWire

/// One stretch of a session's timeline: an asset playing (content, ad, static page, DTVR) or a
/// pause between two of them, with the credit the census holds for it.
public struct TimelineSegment: Sendable, Equatable, Codable {
    /// `content`, `preroll`/`midroll`/`postroll`/`ad`, `static`, `dtvr`, or `pause`.
    package var type: String
    /// The asset's id (`assetid`); empty for a pause.
    public var assetid: String
    /// When it began: the call that began it, Unix seconds.
    package var start: Double
    /// When it ended: the call that ended it, Unix seconds.
    public var end: Double
    /// The first trace entry it spans.
    public var fromSeq: Int
    /// The last trace entry it spans.
    public var toSeq: Int
    /// Playheads (or ID3 tags) reported in it.
    public var reports: Int
    /// The first position reported in it, if any.
    public var firstPosition: Int64?
    /// The last position reported in it, if any.
    public var lastPosition: Int64?
    /// Seconds credited for it by the pings the census stored.
    public var creditedSeconds: Int64
}

/// Cuts a trace into ``TimelineSegment``s for the dashboard.
public enum SessionTimeline {
    /// The segments of `entries` (in `seq` order, as the census stores them), credited from
    /// `stored` (the census's pings of that session).
    ///
    /// Linear in the entries: a segment's pings are those of the entries from where it began to
    /// where it closed, read once more at its close (consecutive segments share one entry at most).
    public static func segments(of entries: [CallTraceEntry], stored: [StoredPing]) -> [TimelineSegment] {
        let credit = Dictionary(stored.map { ($0.pingID, $0) }, uniquingKeysWith: { first, _ in first })
        var segments: [TimelineSegment] = []
        var open: (segment: TimelineSegment, from: Int)?
        var pausedAt: (time: Double, seq: Int)?
        // What a playhead after a pause resumes: kept, not searched for among the pauses.
        var lastPlayed: (type: String, assetid: String)?

        func close(at index: Int) {
            guard case let (opened, from)? = open else { return }
            var segment = opened
            let entry = entries[index]
            open = nil
            // A page is on screen until the next call that ends it; a stream shows only where it played.
            if segment.type == "static" {
                segment.end = entry.time
            } else if segment.reports == 0 {
                return
            }
            segment.toSeq = max(segment.toSeq, entry.seq)
            let built = entries[from...index].filter { $0.seq >= segment.fromSeq && $0.seq <= entry.seq }.flatMap(\.pings)
            // Saturating: stored seconds are each bounded, but a sum of many must not trap either.
            segment.creditedSeconds = built.compactMap { credit[$0.id] }.filter { $0.assetid == segment.assetid }
                .reduce(0) { TraceArithmetic.sum($0, $1.creditedSeconds) }
            segments.append(segment)
            lastPlayed = (segment.type, segment.assetid)
        }

        func begin(_ type: String, _ assetid: String, at index: Int) {
            let entry = entries[index]
            if let pause = pausedAt, entry.time - pause.time >= 1 {
                segments.append(TimelineSegment(type: "pause", assetid: "", start: pause.time, end: entry.time,
                                                fromSeq: pause.seq, toSeq: entry.seq, reports: 0, creditedSeconds: 0))
            }
            pausedAt = nil
            open = (TimelineSegment(type: type, assetid: assetid, start: entry.time, end: entry.time, fromSeq: entry.seq,
                                    toSeq: entry.seq, reports: 0, creditedSeconds: 0), index)
        }

        for (index, entry) in entries.enumerated() {
            switch TracedCall(rawValue: entry.call) {
            case .loadMetadata:
                close(at: index)
                begin(entry[.type], entry[.assetid], at: index)
            case .playheadPosition, .sendID3:
                if open == nil {
                    let isTag = entry.is(.sendID3)
                    begin(isTag ? "dtvr" : lastPlayed?.type ?? "content",
                          isTag ? entry[.cid] : lastPlayed?.assetid ?? "", at: index)
                }
                let position = Int64(entry[argument: entry.is(.sendID3) ? "pcOffset" : "position"])
                if case let (opened, from)? = open {
                    var segment = opened
                    segment.reports += 1
                    segment.end = entry.time
                    segment.toSeq = entry.seq
                    if segment.firstPosition == nil { segment.firstPosition = position }
                    segment.lastPosition = position ?? segment.lastPosition
                    open = (segment, from)
                }
            case .stop, .end, .appInBackground, .release, .staticEnd:
                if open != nil {
                    close(at: index)
                    pausedAt = (entry.time, entry.seq)
                }
            default:
                break
            }
        }
        if !entries.isEmpty { close(at: entries.count - 1) }
        return segments
    }
}
