import MeterContract

/// DCR static pages (docs/protocol.md §2c): a view ping when a page is shown, duration pings for
/// the whole seconds it stays in the foreground — every `durationPingInterval` seconds, on the
/// core's wake-ups, and when the page closes — with credit checkpoints on the way. A new section or
/// assetid, or `staticEnd`, starts a new view; the app going to the background pauses the page.
struct StaticPart: MeasurementPart {
    typealias Rule = ForegroundCrediting

    /// The page shown, from its `loadMetadata` until another page, a video asset, stop, end or
    /// `staticEnd`.
    struct Page: Sendable {
        var metadata: StaticMetadata
        var start: MeterInstant
        var pending = PendingCredit()
    }

    /// How often the core is woken to credit a page shown in the foreground: a checkpoint at the
    /// latest this often, so a kill loses at most this much of a page's time.
    static let checkpointEvery: Double = 30
    /// The most distinct segA/segB/segC values the guides allow across an app.
    static let maxSegmentValues = 25

    var durationPingInterval: Int64
    private(set) var page: Page?
    private var rule = Rule()
    private var foreground = true
    private var viewed: Set<StaticMetadata> = []
    private var segmentValues: Set<String> = []
    private var segmentLimitReported = false

    init(durationPingInterval: Int64) {
        self.durationPingInterval = durationPingInterval
    }

    /// When the core should wake to credit the page: while one is shown in the foreground.
    var wakeUp: MeterInstant? {
        guard let page, foreground, let since = rule.since?.time else { return nil }
        let untilCheckpoint = Double(durationPingInterval - page.pending.seconds)
        return since + min(Self.checkpointEvery, max(1, untilCheckpoint))
    }

    /// A new viewing session: the page is viewed again.
    mutating func startSession() {
        viewed.removeAll()
    }

    /// `loadMetadata` with static metadata (nil: a video asset, which ends the page).
    mutating func load(_ metadata: StaticMetadata?, _ context: PingContext, at time: MeterInstant, _ out: inout Emission) {
        guard let metadata else { return close(final: false, context, at: time, &out) }
        countSegments(metadata, &out)
        if page?.metadata == metadata { return }
        close(final: false, context, at: time, &out)
        let shown = Page(metadata: metadata, start: time)
        page = shown
        rule = Rule()
        _ = rule.credit(Rule.Observation(time: time, foreground: foreground))
        if viewed.insert(metadata).inserted {
            out.log(.info, "static page \(metadata.section) shown")
            out.send(build(.view, credited: 0, context, at: time, final: false, id: context.newPingID(), page: shown))
        }
    }

    /// A wake-up: credits the time shown so far.
    mutating func tick(_ context: PingContext, at time: MeterInstant, _ out: inout Emission) {
        credit(at: time, context, &out)
    }

    /// The app went to the background or came back: the page's time pauses or goes on.
    mutating func setForeground(_ inForeground: Bool, _ context: PingContext, at time: MeterInstant, _ out: inout Emission) {
        credit(at: time, context, &out)
        foreground = inForeground
        _ = rule.credit(Rule.Observation(time: time, foreground: inForeground))
    }

    /// After a new viewing session began (a long background), the page shown is viewed again.
    mutating func reshow(_ context: PingContext, at time: MeterInstant, _ out: inout Emission) {
        guard var current = page, viewed.insert(current.metadata).inserted else { return }
        current.start = time
        page = current
        out.send(build(.view, credited: 0, context, at: time, final: false, id: context.newPingID(), page: current))
    }

    /// `staticEnd`, or `end`: the page's time goes out in a final ping; the same page loaded again
    /// is a new view.
    mutating func end(_ context: PingContext, at time: MeterInstant, _ out: inout Emission) {
        guard let current = page else { return }
        close(final: true, context, at: time, &out)
        viewed.remove(current.metadata)
    }

    mutating func reportPending(_ context: PingContext, at time: MeterInstant, _ out: inout Emission) {
        credit(at: time, context, &out)
        guard var current = page, current.pending.seconds > 0 else { return }
        sendDuration(&current, context, at: time, final: false, &out)
        page = current
    }

    mutating func close(final: Bool, _ context: PingContext, at time: MeterInstant, _ out: inout Emission) {
        credit(at: time, context, &out)
        guard var current = page else { return }
        page = nil
        if current.pending.seconds > 0 || final {
            sendDuration(&current, context, at: time, final: final, &out)
        }
    }

    private mutating func credit(at time: MeterInstant, _ context: PingContext, _ out: inout Emission) {
        guard var current = page else { return }
        let credited = rule.credit(Rule.Observation(time: time, foreground: foreground))
        if credited > 0 { out.progress.creditedSeconds[AssetKey(.staticPage, current.metadata.section), default: 0] += credited }
        switch current.pending.add(credited, durationPingInterval: durationPingInterval, checkpointInterval: 1) {
        case .durationPing: sendDuration(&current, context, at: time, final: false, &out)
        case .checkpoint:
            let id = current.pending.idForCheckpoint(context.newPingID)
            let ping = build(.duration, credited: current.pending.seconds, context, at: time, final: false, id: id, page: current)
            out.effects.append(.checkpoint(PingRecord(ping: ping, recovered: true), slot: .staticPage))
        case .nothing: break
        }
        page = current
    }

    /// The 25-unique-values rule of the guides, reported once, not enforced.
    private mutating func countSegments(_ metadata: StaticMetadata, _ out: inout Emission) {
        for value in [metadata.segA, metadata.segB, metadata.segC] where !value.isEmpty { segmentValues.insert(value) }
        guard segmentValues.count > Self.maxSegmentValues, !segmentLimitReported else { return }
        segmentLimitReported = true
        out.report(.failedParseMetadata,
                   "loadMetadata: 'segA'/'segB'/'segC' have \(segmentValues.count) distinct values; the guides allow at most \(Self.maxSegmentValues) (measured as given)")
    }

    private func sendDuration(_ page: inout Page, _ context: PingContext, at time: MeterInstant, final: Bool, _ out: inout Emission) {
        let (seconds, id) = page.pending.takeForPing(context.newPingID)
        out.send(build(.duration, credited: seconds, context, at: time, final: final, id: id, page: page), clearing: .staticPage)
    }

    private func build(
        _ kind: PingKind, credited: Int64, _ context: PingContext, at time: MeterInstant, final: Bool, id: String,
        page: Page
    ) -> Ping {
        PingBuilder.build(PingFacts(
            context: context, asset: .staticPage(page.metadata), content: nil, kind: kind, creditedSeconds: credited,
            segmentStart: page.start, createdAt: time, isFinal: final, isLive: false, adPosition: nil, pingID: id))
    }
}
