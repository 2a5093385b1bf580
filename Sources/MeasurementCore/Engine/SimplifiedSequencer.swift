/// The simplified API's ordering (the simplified guide): turns each ``TrackedEvent`` into the
/// standard API's calls — `play`, `loadMetadata`, `playheadPosition`, `sendID3`, `stop`, `end`,
/// `staticEnd` — in the order the lifecycle needs, so that there is one engine behind both APIs.
///
/// - Metadata is loaded only when it changes, so a dictionary sent every second with the same
///   values costs no call; content metadata goes first, even when the first event is an ad.
/// - An ad is new when its metadata changes (`assetid`, `adldx`/`adIdx`) or after `adStop`; content
///   loaded again after ads resumes where it left off (the video part keeps its reference).
/// - `pause` is `stop`; `complete` is `end` (for `type` static: `staticEnd`, a new view next time).
/// - No event for more than 30 minutes while video plays is a pause (the core's wake-up).
struct SimplifiedSequencer: Sendable {
    /// What the core does for one step.
    enum Step: Sendable, Equatable {
        /// A standard API call.
        case command(MeterCommand)
        /// The current ad ended (`adStop`): its seconds go out, and the same ad again is a new one.
        case endAd
        /// A problem with the call: an error naming the key, or a WARN line.
        case tell(MetadataIssue)
    }

    /// The 30-minute rule: the simplified API pauses on its own after this long without an event.
    static let pauseAfter: Double = 1800

    private var playing = false
    private var paused = false
    private var content: AssetMetadata?
    private var ad: AssetMetadata?
    private var page: AssetMetadata?
    private var current: TrackedEvent.Subject?
    private var lastEvent: MeterInstant?

    /// When the core should wake to pause: 30 minutes after the last event, while video plays.
    @inline(__always)   // read after every command (``MeterCore/partsWakeUp``)
    var wakeUp: MeterInstant? {
        guard playing, !paused, current == .content || current == .ad, let lastEvent else { return nil }
        return lastEvent + Self.pauseAfter
    }

    /// The wake-up came: the app stopped talking without a pause, so pause for it.
    mutating func pauseForSilence() -> [Step] {
        paused = true
        return [.command(.stop)]
    }

    /// The standard calls for `event`, called at `time`.
    mutating func steps(for event: TrackedEvent, at time: MeterInstant) -> [Step] {
        lastEvent = time
        var steps = event.issues.map { Step.tell($0) }
        if let ott = event.ott { steps.append(.command(.ott(ott))) }
        switch event.event {
        case .playhead:
            paused = false
            switch event.subject {
            case .static: showPage(event, &steps)
            case .content: playContent(event, &steps)
            case .ad: playAd(event, &steps)
            }
            if let tag = event.id3 { steps.append(.command(.id3(tag))) }
        case .pause:
            guard current != nil, !paused else { break }
            paused = true
            if current == .static { page = nil }
            steps.append(.command(.stop))
        case .complete:
            if event.subject == .static {
                page = nil
                if current == .static { current = nil }
                steps.append(.command(.staticEnd))
            } else {
                self = SimplifiedSequencer()
                lastEvent = time
                steps.append(.command(.end))
            }
        case .adStop:
            guard current == .ad else { break }
            ad = nil
            current = nil
            steps.append(.endAd)
        }
        return steps
    }

    private mutating func showPage(_ event: TrackedEvent, _ steps: inout [Step]) {
        guard let parsed = event.staticPage, let metadata = parsed.metadata else {
            if page == nil { steps.append(missing("static")) }
            return
        }
        guard metadata != page || current != .static else { return }
        page = metadata
        current = .static
        steps.append(.command(.loadMetadata(parsed)))
    }

    private mutating func playContent(_ event: TrackedEvent, _ steps: inout [Step]) {
        guard loadContent(event, force: current != .content, &steps) else { return }
        current = .content
        if let position = event.position { steps.append(.command(.playhead(position))) }
    }

    private mutating func playAd(_ event: TrackedEvent, _ steps: inout [Step]) {
        // The standard API wants the content's metadata before its first ad (a preroll).
        if content == nil, event.content?.metadata != nil { _ = loadContent(event, force: false, &steps) }
        if let parsed = event.ad, let metadata = parsed.metadata {
            if metadata != ad || current != .ad {
                startPlay(event, &steps)
                ad = metadata
                steps.append(.command(.loadMetadata(parsed)))
            }
        } else if current != .ad || ad == nil {
            return steps.append(missing("ad"))
        }
        current = .ad
        if let position = event.position { steps.append(.command(.playhead(position))) }
    }

    /// Loads the event's content metadata when it changed (or `force`); false when there is none.
    private mutating func loadContent(_ event: TrackedEvent, force: Bool, _ steps: inout [Step]) -> Bool {
        guard let parsed = event.content, let metadata = parsed.metadata else {
            if content == nil {
                steps.append(missing("content"))
                return false
            }
            if force, let content { steps.append(.command(.loadMetadata(.init(metadata: content, issues: [])))) }
            return true
        }
        guard metadata != content || force else { return true }
        startPlay(event, &steps)
        content = metadata
        steps.append(.command(.loadMetadata(parsed)))
        return true
    }

    private mutating func startPlay(_ event: TrackedEvent, _ steps: inout [Step]) {
        guard !playing else { return }
        playing = true
        steps.append(.command(.play(channelName: event.channelName)))
    }

    private func missing(_ object: String) -> Step {
        .command(.report(.emptyValue, "trackEvent: type \(object) without 'metadata.\(object)'; nothing to measure"))
    }
}
