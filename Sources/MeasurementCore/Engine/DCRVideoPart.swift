import MeterContract

/// DCR video and audio content and ads, driven by playheads (docs/protocol.md §2): a view ping at
/// an asset's first playhead, duration pings every `durationPingInterval` credited seconds and
/// when the asset's segment closes, credit checkpoints in between.
struct DCRVideoPart: StreamPart {
    typealias Rule = PlayheadCrediting

    /// What one crediting rule and one view belong to: an asset, and for ads the index the app
    /// gave (`adldx`), so that the same ad played twice in a row is two ads.
    struct SegmentKey: Hashable, Sendable {
        var asset: AssetKey
        var podIndex: String
    }

    /// The asset being measured, from its `loadMetadata` until stop, end or another asset.
    struct Segment: CreditedSegment, Sendable {
        var metadata: AssetMetadata
        var key: SegmentKey
        var start: MeterInstant?
        /// Decided at the first playhead: a 24×7 length, or playheads that are Unix times.
        var isLive = false
        /// For ads: the ad's place in its break (1 for the first ad after content).
        var breakPosition = 0
        /// Credited seconds not yet in a ping.
        var pending = PendingCredit()
        /// Its key is in the part's views: later playheads need not hash the key to ask again.
        var isViewed = false
    }

    /// Playheads at or above this are Unix times: the stream is live whatever its `length`.
    static let unixTimeThreshold: Int64 = 1_000_000_000

    var cadence: CreditCadence
    private(set) var segment: Segment?
    /// The segment `stop` (or another interruption) closed: playheads resume it (Ireland).
    private var resumable: Segment?
    /// ``resumable`` was played and closed in the current viewing session: resuming it starts the
    /// guides' "new viewing session" (decisions.md L3c).
    private var interruptedInSession = false
    /// One rule per asset: references survive ads and `stop`, and are forgotten on `end`.
    private var rules = RecentKeyDictionary<SegmentKey, Rule>()
    private var viewed: Set<SegmentKey> = []
    /// A playhead came since the last `end`: an ad that ends unplayed was skipped, not a Digital Ad
    /// Ratings impression (decisions.md, Crediting C6).
    private var hadPlayheads = false
    /// Assets whose playheads looked like milliseconds, told once each.
    private var warnedOfMilliseconds: Set<SegmentKey> = []
    private var currentContent: ContentMetadata?
    /// The station an ad plays in, if any: its ads are audio too.
    private var currentStation: StationMetadata?
    /// Content was measured since the last `end`: an `end` after `stop` still ends it (Poland).
    private var contentToEnd: Segment?
    /// Ads started since the last content segment, and the place each viewed ad had.
    private var adsInBreak = 0
    private var lastBreakPositions: [SegmentKey: Int] = [:]

    init(durationPingInterval: Int64, checkpointInterval: Int64) {
        cadence = CreditCadence(durationPingInterval: durationPingInterval, checkpointInterval: checkpointInterval, slot: .dcr)
    }

    /// Whether what is open is video that stops when the app leaves the foreground: content or an
    /// ad in it, not audio, not in picture-in-picture (`pipMode` "true").
    var playsWithoutPictureInPicture: Bool {
        guard let segment, currentStation == nil else { return false }
        switch segment.metadata {
        case .content(let content): return content.stopsInBackground
        case .ad: return currentContent?.stopsInBackground ?? true
        case .station, .dtvr, .staticPage: return false
        }
    }

    /// Whether a playhead with nothing open has something to resume.
    var canResume: Bool { segment != nil || resumable != nil }

    /// Whether an `end` has content to end.
    var canEnd: Bool { segment != nil || contentToEnd != nil }

    /// Whether a playhead now resumes what an interruption closed in this viewing session, which
    /// starts a new one (decisions.md L3c).
    var playheadResumesInterruption: Bool { segment == nil && resumable != nil && interruptedInSession }

    /// Whether loading `metadata` now resumes what an interruption closed in this viewing session
    /// (the same asset, and for ads the same index), which starts a new one (decisions.md L3c).
    func loadResumesInterruption(_ metadata: AssetMetadata) -> Bool {
        guard segment == nil, interruptedInSession, let resumable else { return false }
        return Self.key(of: metadata) == resumable.key
    }

    /// A new viewing session: every asset gets a view ping again, the one open or resumable too.
    mutating func startSession() {
        viewed.removeAll()
        lastBreakPositions.removeAll()
        segment?.isViewed = false
        resumable?.isViewed = false
        interruptedInSession = false
    }

    /// What one crediting rule and one view of `metadata` belong to; nil for another part's asset.
    private static func key(of metadata: AssetMetadata) -> SegmentKey? {
        switch metadata {
        case .content(let content): SegmentKey(asset: AssetKey(.content, content.assetID), podIndex: "")
        case .station(let station): SegmentKey(asset: AssetKey(.station, station.assetID), podIndex: "")
        case .ad(let ad): SegmentKey(asset: AssetKey(.ad, ad.assetID), podIndex: ad.podIndex)
        case .dtvr, .staticPage: nil
        }
    }

    /// `loadMetadata`: the same asset updates its metadata; another closes the current segment.
    mutating func load(_ metadata: AssetMetadata, _ context: PingContext, at time: MeterInstant, _ out: inout Emission) {
        guard let key = Self.key(of: metadata) else {
            // A DTVR stream or a static page is another part's: what DCR measured before ends here.
            close(final: false, context, at: time, &out)
            resumable = nil
            return
        }
        switch metadata {
        case .content(let content):
            currentContent = content
            currentStation = nil
        case .station(let station):
            currentContent = nil
            currentStation = station
        case .ad, .dtvr, .staticPage: break
        }
        if segment?.key == key {
            segment?.metadata = metadata
            return
        }
        // Read before `close`, which makes what is open the next thing to resume.
        let resumedPlace = resumable?.key == key ? resumable?.breakPosition : nil
        close(final: false, context, at: time, &out)
        resumable = nil
        var opened = Segment(metadata: metadata, key: key)
        if key.asset.kind == .ad {
            // An ad loaded again to resume it keeps its place in the break, in a new session too.
            if let place = resumedPlace ?? lastBreakPositions[key] {
                opened.breakPosition = place
            } else {
                adsInBreak += 1
                opened.breakPosition = adsInBreak
            }
        } else {
            adsInBreak = 0
            contentToEnd = opened
        }
        segment = opened
    }

    /// `playheadPosition`, in seconds. With nothing open, resumes what `stop` closed.
    mutating func playhead(_ position: Int64, _ context: PingContext, at time: MeterInstant, _ out: inout Emission) {
        if let problem = PlayheadCheck.impossible(position) {
            out.report(.invalidPlayheadPosition, problem)
            return
        }
        if segment == nil, let resumed = resumable {
            out.log(.info, "resuming \(resumed.key.asset) after an interruption")
            segment = resumed
            resumable = nil
        }
        // Moved out and back, not copied: a copy of the segment (its metadata's strings) was most
        // of a playhead's cost.
        guard var current = segment.take() else {
            out.log(.warning, "playheadPosition ignored: no metadata loaded; call loadMetadata first")
            out.ignoredCalls += 1
            return
        }
        out.log(.info, "playheadPosition \(position)")
        hadPlayheads = true
        if current.start == nil {
            current.start = time
            current.isLive = Self.isLive(current.metadata, firstPlayhead: position)
        }
        if !current.isViewed {
            current.isViewed = true
            if viewed.insert(current.key).inserted {
                lastBreakPositions[current.key] = current.breakPosition
                out.send(build(.view, for: current, credited: 0, context, at: time, final: false, id: context.newPingID()))
            }
        }
        // One access to the rule: a playhead comes every second from every player.
        let (credited, inMilliseconds) = rules.update(current.key, orAdd: { Rule() }) { Self.observe(position, by: &$0) }
        if credited > 0 { out.credit(current.key.asset, credited) }
        if inMilliseconds, warnedOfMilliseconds.insert(current.key).inserted {
            out.report(.invalidPlayheadPosition, PlayheadCheck.milliseconds(asset: current.key.asset.description))
        }
        let due = current.pending.add(credited, durationPingInterval: cadence.durationPingInterval,
                                      checkpointInterval: cadence.checkpointInterval)
        if due != .nothing {
            out.settle(due, of: &current, cadence, context, at: time) { durationPing($0, $1, $2, $3, context, at: time) }
        }
        // `consume`: a plain assignment copied the segment and destroyed the copy, every playhead.
        segment = consume current
    }

    /// The seconds `position` credits under `rule`, and whether the rule now takes the playheads
    /// for milliseconds.
    private static func observe(_ position: Int64, by rule: inout Rule) -> (credited: Int64, inMilliseconds: Bool) {
        let credited = rule.credit(position)
        return (credited, rule.looksLikeMilliseconds)
    }

    /// Live when the content's length is the 24×7 one or its playheads are Unix times (an event's
    /// planned length, or 0 for unknown, is live only then).
    static func isLive(_ metadata: AssetMetadata, firstPlayhead: Int64) -> Bool {
        switch metadata {
        case .content(let content): content.length == ContentMetadata.alwaysOnLength || firstPlayhead >= unixTimeThreshold
        case .station: firstPlayhead >= unixTimeThreshold
        case .ad, .dtvr, .staticPage: false
        }
    }

    /// `end`: closes the content with exactly one final ping (`davty=2`) — carrying the seconds not
    /// yet reported, or 0 when there are none (a duration ping just went out, or `stop` came first)
    /// — and forgets every reference, so it can be viewed again.
    mutating func end(_ context: PingContext, at time: MeterInstant, _ out: inout Emission) {
        var finalSent = false
        if var current = segment {
            segment = nil
            // Digital Ad Ratings: play, loadMetadata, end, and no playheads (the API reference's
            // DAR column): the ad's view ping is its impression.
            if current.key.asset.kind == .ad, !current.isViewed, !hadPlayheads, viewed.insert(current.key).inserted {
                out.log(.info, "\(current.key.asset) ended without playheads: counted as an ad impression")
                out.send(build(.view, for: current, credited: 0, context, at: time, final: false, id: context.newPingID()))
            }
            let isContent = current.key.asset.kind.isProgramme
            if current.pending.seconds > 0 {
                sendDuration(&current, context, at: time, final: isContent, &out)
                finalSent = isContent
            }
            if isContent { contentToEnd = current }
        }
        // Content that never had a playhead (loaded before a preroll, then ended) had no view: no final ping either.
        if !finalSent, let ended = contentToEnd, viewed.contains(ended.key) {
            out.send(build(.duration, for: ended, credited: 0, context, at: time, final: true, id: context.newPingID()))
        }
        rules.removeAll()
        viewed.removeAll()
        warnedOfMilliseconds.removeAll()
        hadPlayheads = false
        lastBreakPositions.removeAll()
        resumable = nil
        contentToEnd = nil
        adsInBreak = 0
    }

    /// `adStop` of the simplified API: the open ad's seconds go out, and the same ad (same
    /// `assetid` and index) played next is a new ad with its own view.
    mutating func endAd(_ context: PingContext, at time: MeterInstant, _ out: inout Emission) {
        guard let current = segment, current.key.asset.kind == .ad else { return }
        close(final: false, context, at: time, &out)
        resumable = nil
        rules.remove(current.key)
        viewed.remove(current.key)
        lastBreakPositions[current.key] = nil
    }

    mutating func reportPending(_ context: PingContext, at time: MeterInstant, _ out: inout Emission) {
        guard var current = segment, current.pending.seconds > 0 else { return }
        sendDuration(&current, context, at: time, final: false, &out)
        segment = consume current
    }

    mutating func close(final: Bool, _ context: PingContext, at time: MeterInstant, _ out: inout Emission) {
        guard var current = segment else { return }
        segment = nil
        if current.pending.seconds > 0 {
            sendDuration(&current, context, at: time, final: final, &out)
        }
        if current.key.asset.kind.isProgramme { contentToEnd = current }
        current.start = nil
        // An interruption of what played: resuming it is a new viewing session (decisions.md L3c).
        interruptedInSession = !final && current.isViewed
        resumable = final ? nil : current
    }

    /// Sends the pending seconds in a duration ping, replacing the checkpoint.
    private func sendDuration(
        _ segment: inout Segment, _ context: PingContext, at time: MeterInstant, final: Bool, _ out: inout Emission
    ) {
        out.sendPending(of: &segment, final: final, cadence, context, at: time) { durationPing($0, $1, $2, $3, context, at: time) }
    }

    private func durationPing(_ segment: Segment, _ seconds: Int64, _ id: String, _ final: Bool, _ context: PingContext,
                              at time: MeterInstant) -> Ping {
        build(.duration, for: segment, credited: seconds, context, at: time, final: final, id: id)
    }

    private func build(
        _ kind: PingKind, for segment: Segment, credited: Int64, _ context: PingContext, at time: MeterInstant,
        final: Bool, id: String
    ) -> Ping {
        PingBuilder.build(PingFacts(
            context: context, asset: segment.metadata, content: currentContent, kind: kind, creditedSeconds: credited,
            segmentStart: segment.start ?? time, createdAt: time, isFinal: final, isLive: segment.isLive,
            adPosition: segment.key.asset.kind == .ad ? segment.breakPosition : nil,
            stationAudio: segment.key.asset.kind == .station || (segment.key.asset.kind == .ad && currentStation != nil),
            pingID: id))
    }
}

extension AssetKind {
    /// Content or a station: what `end` ends and ads play in.
    var isProgramme: Bool { self == .content || self == .station }
}
