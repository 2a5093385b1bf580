import MeterContract

/// The measurement state machine of one instance: a value that takes one command at a time with
/// the time of its call and says what should happen (``MeterEffect``s, a wake-up), with no
/// awaiting and no I/O inside. Its owner (``MeterRunner``) feeds it in call order and does the
/// effects; tests drive it directly and compare effects.
///
/// Every lifecycle transition goes through ``LifecycleTable``. Product parts (today
/// ``DCRVideoPart``) measure; the core routes commands to them and keeps what they share: the
/// state, the viewing session, the ping identity, the log level.
public struct MeterCore: Sendable {
    /// What a core starts with.
    public struct Settings: Sendable {
        package var app: MeasuredApp
        package var sdkVersion: String
        package var identifiers: CoreIdentifiers
        package var identity: PingIdentity
        /// Duration pings at the latest every this many credited seconds (the census may change it).
        package var durationPingInterval: Int64
        /// Credit not yet in a ping is checkpointed at the latest every this many seconds.
        package var checkpointInterval: Int64
        /// While playheads flow, the core asks to be woken this long after the last one to take
        /// those that came meanwhile (0: playheads are taken at once).
        package var playheadTick: Double
        /// The log level from appInfo `nol_devDebug` (`critical`: off).
        package var logLevel: MeterLogLevel

        /// Creates a core's settings.
        public init(
            app: MeasuredApp, sdkVersion: String, identifiers: CoreIdentifiers, identity: PingIdentity,
            durationPingInterval: Int64, checkpointInterval: Int64, playheadTick: Double, logLevel: MeterLogLevel
        ) {
            self.app = app
            self.sdkVersion = sdkVersion
            self.identifiers = identifiers
            self.identity = identity
            self.durationPingInterval = durationPingInterval
            self.checkpointInterval = checkpointInterval
            self.playheadTick = playheadTick
            self.logLevel = logLevel
        }
    }

    /// The lifecycle state after the commands handled so far.
    package private(set) var state: LifecycleState = .idle
    /// Counters for the snapshot.
    package private(set) var progress = MeterProgress()
    /// The credit added since the owner last took it (``takeCredits()``).
    private var untakenCredits = CreditChanges()
    private var context: PingContext
    private var video: DCRVideoPart
    private var dtvr: DTVRPart
    private var staticPages: StaticPart
    private var appRun = AppRunPart()
    private var sequencer = SimplifiedSequencer()
    /// The simplified API's keys without effect already named in a WARN line.
    private var keysToldWithoutEffect: KeysWithoutEffect = []
    private var viewability = ViewabilityPart()
    /// Since when the app is in the background (nil in the foreground).
    private var backgroundSince: MeterInstant?
    private let baseLogLevel: MeterLogLevel
    private var logLevel: MeterLogLevel
    private let playheadTick: Double
    /// The last playhead's call time while playheads flow (nil once a wake-up found none newer).
    private var lastPlayhead: MeterInstant?

    /// Creates a core in the Idle state.
    package init(_ settings: Settings) {
        context = PingContext(app: settings.app, sdkVersion: settings.sdkVersion,
                              identifiers: settings.identifiers, identity: settings.identity)
        video = DCRVideoPart(durationPingInterval: settings.durationPingInterval,
                             checkpointInterval: settings.checkpointInterval)
        dtvr = DTVRPart(durationPingInterval: settings.durationPingInterval,
                        checkpointInterval: settings.checkpointInterval)
        staticPages = StaticPart(durationPingInterval: settings.durationPingInterval)
        baseLogLevel = settings.logLevel
        logLevel = settings.logLevel
        playheadTick = settings.playheadTick
    }

    /// When the core wants a ``MeterCommand/wakeUp``: the earliest of ``partsWakeUp`` and, while
    /// playheads flow, one tick after the last playhead, so that playheads never have to wake it
    /// (their callers pay no wake-up) yet are taken at most a tick late. Nil: none wanted.
    @inline(__always)   // read after every command: out of line, each read copied the whole core (2.8 kB)
    package var requestedWakeUp: MeterInstant? {
        let tick = state == .processing && playheadTick > 0 ? lastPlayhead.map { $0 + playheadTick } : nil
        return earliest(tick, partsWakeUp)
    }

    /// The wake-ups product parts need at their deadlines (a static page's time, the app run's
    /// checkpoint), which the owner hands over in time order with the calls around them.
    @inline(__always)
    package var partsWakeUp: MeterInstant? {
        guard Self.hasAppOnlyParts else { return state == .processing ? staticPages.wakeUp : nil }
        return earliest(state == .processing ? earliest(staticPages.wakeUp, sequencer.wakeUp) : nil,
                        isEnabled ? appRun.wakeUp : nil)
    }

    /// Not disabled by the app or the census.
    private var isEnabled: Bool { state == .idle || state == .processing }

    @inline(__always)
    private func earliest(_ first: MeterInstant?, _ second: MeterInstant?) -> MeterInstant? {
        guard let first else { return second }
        guard let second else { return first }
        return min(first, second)
    }

    /// Whether a playhead may wait for ``requestedWakeUp`` rather than wake the core: only while the
    /// playhead tick is on, so it waits at most one tick (other wake-ups can be a minute away).
    @inline(__always)
    package var playheadsMayWait: Bool {
        state == .processing && playheadTick > 0 && lastPlayhead != nil
    }

    /// The credit added to ``MeterProgress/creditedSeconds`` since the last call: what an owner
    /// that publishes the totals adds to its own copy (``CreditChanges`` says why not a copy).
    package mutating func takeCredits() -> CreditChanges {
        var taken = CreditChanges()
        swap(&taken, &untakenCredits)
        return taken
    }

    /// Handles `command`, called at `time`, appending what should happen to `effects`; returns
    /// the outlook after it.
    @discardableResult
    package mutating func handle(_ command: MeterCommand, at time: MeterInstant, into effects: inout [MeterEffect]) -> MeterOutlook {
        emit(command, at: time, into: &effects)
        return outlook
    }

    private mutating func emit(_ command: MeterCommand, at time: MeterInstant, into effects: inout [MeterEffect]) {
        var out = Emission(effects: [], logLevel: logLevel)
        swap(&out.effects, &effects)
        defer { swap(&out.effects, &effects) }
        let start = out.effects.count
        handle(command, at: time, &out)
        if Self.hasAppOnlyParts, viewability.isTracking { sendViewability(after: start, &out) }
        progress.ignoredCalls += out.ignoredCalls
        progress.pingsBuilt += out.pingsBuilt
        if let first = out.firstCredit {
            add(first)
            for credit in out.laterCredits { add(credit) }
        }
    }

    /// Adds credit given for a command to the totals and the changes the owner takes.
    private mutating func add(_ credit: Emission.AssetCredit) {
        progress.credited.update(credit.key, orAdd: { 0 }) { $0 += credit.seconds }
        if Self.hasAppOnlyParts { untakenCredits.add(credit.key, credit.seconds) }
    }

    private mutating func handle(_ command: MeterCommand, at time: MeterInstant, _ out: inout Emission) {
        switch command {
        // A simplified event and a wake-up change pings only through the commands they run.
        case .playhead, .wakeUp, .track, .viewability: break
        default: context.revision &+= 1
        }
        switch command {
        case .play(let channel):
            let wasProcessing = state == .processing
            guard accept(.play, &out) else { return }
            out.log(.info, "play channelName=\(channel ?? "")")
            // Italy: "call play() each time" for a new stream: what was open ends its session.
            if wasProcessing { closeAll(at: time, &out) }
            startSession(at: time, &out)
            dtvr.played()
            context.channelName = channel.flatMap { $0.isEmpty ? nil : $0 } ?? PingContext.defaultChannelName(for: context.app)
        case .loadMetadata(let parsed):
            // Problems are reported only for a call the lifecycle table takes.
            guard LifecycleTable.next(after: .loadMetadata, in: state) != nil else {
                _ = accept(.loadMetadata, &out)
                return
            }
            out.log(.info, "loadMetadata " + (parsed.metadata.map { $0.logText } ?? "(unusable)"))
            for issue in parsed.issues {
                out.tell(issue, "loadMetadata")
            }
            guard let metadata = parsed.metadata, accept(.loadMetadata, &out) else { return }
            // Italy and Poland resume with loadMetadata "for the new viewing session" (L3c).
            if video.loadResumesInterruption(metadata) {
                out.log(.info, "loadMetadata resumes after an interruption: a new viewing session")
                startSession(at: time, &out)
            } else if context.sessionID == nil {
                context.sessionID = context.identifiers.newSessionID()
            }
            // Each part takes what is its own; a page ends with any other asset, DTVR with any but an ad.
            everyStreamPart(.load(metadata), at: time, &out)
        case .playhead(let reported):
            // 13-digit Unix milliseconds are read as their seconds (decisions.md C1a).
            let position = PlayheadCheck.seconds(reported)
            // Idle takes playheads only to resume what `stop` closed (Ireland); else nothing to credit.
            if state == .idle && !video.canResume {
                return ignore("playheadPosition ignored in Idle: nothing to resume; call loadMetadata before sending playheads", &out)
            }
            guard accept(.playheadPosition, &out) else { return }
            // Ireland resumes with playheads only "for the new viewing session" (L3c).
            if video.playheadResumesInterruption { startSession(at: time, &out) }
            lastPlayhead = time
            video.playhead(position, context, at: time, &out)
            if Self.hasAppOnlyParts, viewability.isTracking, let asset = video.segment?.key.asset {
                viewability.observe(offset: position, asset: asset, at: time)
            }
        case .track(let event):
            guard Self.hasAppOnlyParts else { return out.report(.exception, Self.appOnly("trackEvent")) }
            tellKeysWithoutEffect(event.keysWithoutEffect, &out)
            run(sequencer.steps(for: event, at: time), at: time, &out)
        case .id3(let tag):
            guard Self.hasAppOnlyParts else { return out.report(.failedProcessID3, Self.appOnly("sendID3")) }
            guard accept(.sendID3, &out) else { return }
            dtvr.tag(tag, context, at: time, &out)
            if viewability.isTracking, let cid = tag.creditCID, let offset = tag.creditOffset {
                viewability.observe(offset: Int64(offset), asset: AssetKey(.dtvr, cid), at: time)
            }
        case .stop:
            guard accept(.stop, &out) else { return }
            out.log(.info, "stop")
            closeAll(at: time, &out)
        case .end:
            // Idle takes `end` only to end content that `stop` closed (Poland: "always call stop", then end).
            if state == .idle && !video.canEnd {
                return ignore("end ignored: no content was measured since the last end", &out)
            }
            guard accept(.end, &out) else { return }
            out.log(.info, "end")
            everyStreamPart(.end, at: time, &out)
            out.effects.append(.deliverPromptly)
        case .setDisabled(let disabled):
            let wasProcessing = state == .processing
            guard accept(disabled ? .disableAPI : .enableAPI, &out) else { return }
            out.log(.info, "appDisableApi = \(disabled)")
            // The simplified API starts afresh when measurement comes back.
            if disabled { sequencer = SimplifiedSequencer() }
            if wasProcessing { closeAll(at: time, &out) }
            // Disabled: queued pings stay on disk, unsent, until enabled again or the next launch.
            out.effects.append(disabled ? .pauseDelivery : .resumeDelivery)
        case .setDebug(let on):
            logLevel = on ? .debug : baseLogLevel
            out.effects.append(.setLogLevel(logLevel))
        case .setOptOut(let choice):
            guard accept(choice.optOut ? .userOptOut : .userOptIn, &out) else { return }
            out.log(.info, "userOptOut optOut=\(choice.optOut)\(choice.byAnotherInstance ? " (by another instance of the app)" : "")")
            // Credit so far goes out under the old choice, so every ping carries one opt state.
            everyStreamPart(.reportPending, at: time, &out)
            if Self.hasAppOnlyParts { appRun.reportPending(context, at: time, &out) }
            context.identity = choice.identity
            if choice.persists { out.effects.append(.persistOptOut(choice.optOut)) }
        case .ott(let status):
            // Only what pings carry (c71/c72) splits the credit; device names are kept quietly.
            let changes = status.isConnected != context.ott.isConnected || status.connection != context.ott.connection
            if changes {
                out.log(.info, "updateOTT ottStatus=\(status.isConnected ? 1 : 0) ottType=\(status.connection?.rawValue ?? "")")
                everyStreamPart(.reportPending, at: time, &out)
            }
            context.ott = status
        case .trackViewability(let target):
            guard Self.hasAppOnlyParts else { return out.report(.exception, Self.appOnly("trackViewability")) }
            out.log(.info, "trackViewability viewTag=\(target.viewTag)")
            viewability.start(target)
        case .viewability(let sample):
            if Self.hasAppOnlyParts { viewability.update(sample) }
        case .configReceived(let config):
            apply(config, at: time, &out)
        case .report(let code, let description):
            out.report(code, description)
        case .appInBackground:
            guard backgroundSince == nil else { return }
            backgroundSince = time
            out.log(.info, "app in background")
            staticPages.setForeground(false, context, at: time, &out)
            if isEnabled, Self.hasAppOnlyParts { appRun.setForeground(false, context, at: time, &out) }
            // Video players without picture-in-picture: the background is an interruption.
            if video.playsWithoutPictureInPicture { video.close(final: false, context, at: time, &out) }
            out.effects.append(.deliverPromptly)
        case .appInForeground:
            guard let since = backgroundSince else { return }
            backgroundSince = nil
            out.log(.info, "app in foreground")
            // The 30-minute rule: a long background ends the viewing session.
            if time - since > ForegroundCrediting.maxGap { startSession(at: time, &out) }
            staticPages.setForeground(true, context, at: time, &out)
            staticPages.reshow(context, at: time, &out)
            if isEnabled, Self.hasAppOnlyParts { appRun.setForeground(true, context, at: time, &out) }
        case .appLaunched(let crashed):
            guard Self.hasAppOnlyParts else { return out.report(.exception, Self.appOnly("the app run")) }
            guard isEnabled else { return }
            if context.sessionID == nil { context.sessionID = context.identifiers.newSessionID() }
            appRun.launch(previousRunCrashed: crashed, context, at: time, &out)
        case .staticEnd:
            guard state == .processing, staticPages.page != nil else {
                return ignore("staticEnd ignored: no static page is shown", &out)
            }
            out.log(.info, "staticEnd")
            staticPages.end(context, at: time, &out)
        case .wakeUp:
            // Each part only when its own deadline has come, so an early wake-up changes nothing.
            if let lastPlayhead, lastPlayhead + playheadTick <= time { self.lastPlayhead = nil }
            if state == .processing, let due = staticPages.wakeUp, due <= time { staticPages.tick(context, at: time, &out) }
            guard Self.hasAppOnlyParts else { return }
            if isEnabled, let due = appRun.wakeUp, due <= time { appRun.tick(context, at: time, &out) }
            if state == .processing, let due = sequencer.wakeUp, due <= time {
                out.log(.info, "trackEvent: no event for 30 minutes; paused")
                run(sequencer.pauseForSilence(), at: time, &out)
            }
        case .release:
            closeAll(at: time, &out)
            if Self.hasAppOnlyParts { appRun.close(final: true, context, at: time, &out) }
            out.effects.append(.deliverPromptly)
        }
    }

    private mutating func apply(_ config: ConfigAnswer, at time: MeterInstant, _ out: inout Emission) {
        everyStreamPart(.setDurationPingInterval(config.durationPingInterval), at: time, &out)
        guard config.enabled else {
            let wasProcessing = state == .processing
            guard accept(.censusDisable, &out) else { return }
            if wasProcessing { closeAll(at: time, &out) }
            out.report(.failedStartProcessor, "the census disabled measurement for appid \(context.app.appID)")
            return
        }
        out.report(.startup, "AppMeter \(context.sdkVersion) is initialized for \(context.app.appName)")
    }

    /// "The viewability pings will be fired following the same rules as measurement pings": each
    /// duration ping of the asset being observed is followed by one with its series so far.
    private mutating func sendViewability(after start: Int, _ out: inout Emission) {
        var index = start
        while index < out.effects.count {
            if case .enqueue(let record, _) = out.effects[index], record.body == nil, record.ping.kind == .duration,
               let report = viewability.flush(asset: AssetKey(record.ping.assetKind, record.ping.assetID)) {
                let viewabilityRecord = ViewabilityPingBuilder.record(report, with: record.ping, id: context.newPingID())
                out.effects.insert(.enqueue(viewabilityRecord, clearingCheckpoint: nil), at: index + 1)
                index += 1
            }
            index += 1
        }
    }

    /// Walks every stream part, in the order their pings go out.
    private mutating func everyStreamPart(_ step: StreamPartStep, at time: MeterInstant, _ out: inout Emission) {
        video.take(step, context, at: time, &out)
        if Self.hasAppOnlyParts { dtvr.take(step, context, at: time, &out) }
        staticPages.take(step, context, at: time, &out)
    }

    /// Names each documented key without effect once per instance, in a WARN line (SA5a).
    private mutating func tellKeysWithoutEffect(_ keys: KeysWithoutEffect, _ out: inout Emission) {
        let untold = keys.subtracting(keysToldWithoutEffect)
        guard !untold.isEmpty else { return }
        keysToldWithoutEffect.formUnion(untold)
        for (key, notice) in KeysWithoutEffect.notices where untold.contains(key) { out.log(.warning, notice) }
    }

    /// Does what the simplified API's sequencer decided, as if the app had made those calls.
    private mutating func run(_ steps: [SimplifiedSequencer.Step], at time: MeterInstant, _ out: inout Emission) {
        for step in steps {
            switch step {
            case .command(let command): handle(command, at: time, &out)
            case .endAd: video.endAd(context, at: time, &out)
            case .tell(let issue): out.tell(issue, "trackEvent")
            }
        }
    }

    /// A new viewing session (`c59`): every part views its assets again.
    private mutating func startSession(at time: MeterInstant, _ out: inout Emission) {
        context.sessionID = context.identifiers.newSessionID()
        everyStreamPart(.startSession, at: time, &out)
    }

    /// Closes what every product part has open (stop, the kill switches, a new stream, release).
    private mutating func closeAll(at time: MeterInstant, _ out: inout Emission) {
        everyStreamPart(.close, at: time, &out)
    }

    /// Counts and logs a call the state's cell takes only under a condition that does not hold.
    private func ignore(_ reason: String, _ out: inout Emission) {
        out.log(.warning, reason)
        out.ignoredCalls += 1
    }

    /// Applies the lifecycle table: moves to the next state, or counts and logs an ignored call.
    private mutating func accept(_ call: LifecycleCall, _ out: inout Emission) -> Bool {
        guard let next = LifecycleTable.next(after: call, in: state) else {
            out.log(.warning, LifecycleTable.ignoredReason(for: call, in: state))
            out.ignoredCalls += 1
            return false
        }
        state = next
        return true
    }
}
