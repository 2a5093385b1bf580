import MeterContract

/// DCR static pages (docs/protocol.md §2c): a view ping when a page is shown, duration pings for
/// the whole seconds it stays in the foreground — every `durationPingInterval` seconds, on the
/// core's wake-ups, and when the page closes — with credit checkpoints on the way. A new section or
/// assetid, or `staticEnd`, starts a new view; the app going to the background pauses the page.
struct StaticPart: StreamPart {
    typealias Rule = ForegroundCrediting

    /// The page shown, from its `loadMetadata` until another page, a video asset, stop, end or
    /// `staticEnd`.
    struct Page: CreditedSegment, Sendable {
        var metadata: StaticMetadata
        var start: MeterInstant
        var pending = PendingCredit()
    }

    /// How often the core is woken to credit a page shown in the foreground: a checkpoint at the
    /// latest this often, so a kill loses at most this much of a page's time.
    static let checkpointEvery: Double = 30
    /// The most distinct segA/segB/segC values the guides allow across an app.
    static let maxSegmentValues = 25

    var cadence: CreditCadence
    private(set) var page: Page?
    private var rule = Rule()
    private var foreground = true
    /// The pages viewed in this session, by ``StaticMetadata/viewKey`` (a set of strings: a set
    /// of the metadata itself costs the browser's engine 13 kB of specialized code).
    private var viewed: Set<String> = []
    private var segmentValues: Set<String> = []
    private var segmentLimitReported = false

    init(durationPingInterval: Int64) {
        // A checkpoint at every credited second: the core wakes the part only every 30 s.
        cadence = CreditCadence(durationPingInterval: durationPingInterval, checkpointInterval: 1, slot: .staticPage)
    }

    /// When the core should wake to credit the page: while one is shown in the foreground.
    @inline(__always)   // read after every command (``MeterCore/partsWakeUp``)
    var wakeUp: MeterInstant? {
        // The page last, and only its seconds: binding it copied it, after every command.
        guard foreground, let since = rule.since?.time, let pending = page?.pending.seconds else { return nil }
        let untilCheckpoint = Double(cadence.durationPingInterval - pending)
        return since + min(Self.checkpointEvery, max(1, untilCheckpoint))
    }

    /// A new viewing session: the page is viewed again.
    mutating func startSession() {
        viewed.removeAll()
    }

    /// `loadMetadata`: a static page, or any other asset, which ends the page.
    mutating func load(_ asset: AssetMetadata, _ context: PingContext, at time: MeterInstant, _ out: inout Emission) {
        guard let metadata = asset.staticMetadata else { return close(final: false, context, at: time, &out) }
        countSegments(metadata, &out)
        if page?.metadata == metadata { return }
        close(final: false, context, at: time, &out)
        let shown = Page(metadata: metadata, start: time)
        page = shown
        rule = Rule()
        _ = rule.credit(Rule.Observation(time: time, foreground: foreground))
        if viewed.insert(metadata.viewKey).inserted {
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
        guard var current = page, viewed.insert(current.metadata.viewKey).inserted else { return }
        current.start = time
        page = current
        out.send(build(.view, credited: 0, context, at: time, final: false, id: context.newPingID(), page: current))
    }

    /// `staticEnd`, or `end`: the page's time goes out in a final ping; the same page loaded again
    /// is a new view.
    mutating func end(_ context: PingContext, at time: MeterInstant, _ out: inout Emission) {
        guard let current = page else { return }
        close(final: true, context, at: time, &out)
        viewed.remove(current.metadata.viewKey)
    }

    mutating func reportPending(_ context: PingContext, at time: MeterInstant, _ out: inout Emission) {
        credit(at: time, context, &out)
        guard var current = page, current.pending.seconds > 0 else { return }
        sendDuration(&current, context, at: time, final: false, &out)
        page = consume current
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
        if credited > 0 { out.credit(AssetKey(.staticPage, current.metadata.section), credited) }
        out.settle(credited, of: &current, cadence, context, at: time) {
            build(.duration, credited: $1, context, at: time, final: $3, id: $2, page: $0)
        }
        page = consume current
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
        out.sendPending(of: &page, final: final, cadence, context, at: time) {
            build(.duration, credited: $1, context, at: time, final: $3, id: $2, page: $0)
        }
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
