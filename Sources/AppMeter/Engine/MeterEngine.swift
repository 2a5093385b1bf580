import Foundation
import Logging

/// The per-instance measurement state machine. It is the only owner of the viewing state and
/// processes commands strictly in call order (fed by ``CommandInbox``).
actor MeterEngine {
    /// The asset currently measured, from its `loadMetadata` until stop, end or another asset.
    private struct Segment {
        var metadata: AssetMetadata
        var key: AssetKey
        var start: Double?
        /// Credited seconds not yet in a ping.
        var pendingSeconds: Int64 = 0
        /// Of those, the seconds already in the durable checkpoint.
        var checkpointedSeconds: Int64 = 0
        /// The id the next duration ping will carry, allocated with the first checkpoint so that
        /// the checkpoint and the ping are the same ping to the census.
        var nextDurationPingID: String?
    }

    let appInfo: AppInfo
    let sdkVersion: String
    /// Names this instance's checkpoint in the shared queue.
    let instanceID = UUID()
    /// The shared queue this instance delivers through.
    nonisolated var deliveryQueue: DeliveryQueue { delivery }
    private let environment: MeterEnvironment
    private let delivery: DeliveryQueue
    private let snapshot: Locked<MeterSnapshot>
    private let reporter: EventReporter
    private var logger: Logger { reporter.log }

    private var state: LifecycleState
    private var channelName = PingBuilder.defaultChannelName
    private var sessionID: String?
    private var segment: Segment?
    private var references: [AssetKey: PlayheadCrediting] = [:]
    private var viewed: Set<AssetKey> = []
    private var currentContent: ContentMetadata?
    private var durationPingInterval: Int64
    private var privacy: PrivacyProfile
    private var identity: PingIdentity
    /// The census turned this appid off: `appDisableApi = false` cannot turn it back on.
    private var disabledByCensus = false

    init(
        appInfo: AppInfo, sdkVersion: String, environment: MeterEnvironment, delivery: DeliveryQueue,
        snapshot: Locked<MeterSnapshot>, reporter: EventReporter, privacy: PrivacyProfile
    ) {
        self.privacy = privacy
        self.identity = privacy.pingIdentity
        self.appInfo = appInfo
        self.sdkVersion = sdkVersion
        self.environment = environment
        self.delivery = delivery
        self.snapshot = snapshot
        self.reporter = reporter
        self.state = snapshot.withLock { $0.state }
        self.durationPingInterval = environment.durationPingInterval
    }

    /// Processes a batch of commands in order.
    func process(_ batch: [TimedCommand]) async {
        for command in batch {
            await handle(command)
        }
    }

    private func handle(_ timed: TimedCommand) async {
        let time = timed.time
        switch timed.command {
        case .play(let channel):
            guard accept(.play, at: time) else { return }
            logger.info("play", metadata: ["channelName": "\(channel ?? "")"])
            sessionID = environment.identifiers.newSessionID()
            viewed.removeAll()
            channelName = channel.flatMap { $0.isEmpty ? nil : $0 } ?? PingBuilder.defaultChannelName
        case .loadMetadata(let values):
            // Validate only what the lifecycle table would accept; anything else is ignored as such.
            guard LifecycleTable.next(after: .loadMetadata, in: state) != nil else { _ = accept(.loadMetadata, at: time); return }
            logger.info("loadMetadata", metadata: ["metadata": "\(values)"])
            let parsed = MetadataParser.parse(values, market: appInfo.market)
            for issue in parsed.issues {
                report(issue.code, "loadMetadata: '\(issue.key)' \(issue.problem)", at: time)
            }
            guard let metadata = parsed.metadata, accept(.loadMetadata, at: time) else { return }
            await load(metadata, at: time)
        case .playhead(let position):
            guard accept(.playheadPosition, at: time) else { return }
            await playhead(position, at: time)
        case .stop:
            guard accept(.stop, at: time) else { return }
            logger.info("stop")
            await closeSegment(at: time, final: false)
        case .end:
            guard accept(.end, at: time) else { return }
            logger.info("end")
            await closeSegment(at: time, final: true)
            references.removeAll()
            viewed.removeAll()
            await delivery.deliverPromptly()
        case .setDisabled(false) where disabledByCensus:
            logger.warning("appDisableApi = false ignored: the census disabled measurement for this appid")
            snapshot.withLock { $0.ignoredCalls += 1 }
        case .setDisabled(let disabled):
            let wasProcessing = state == .processing
            guard accept(disabled ? .disableAPI : .enableAPI, at: time) else { return }
            logger.info("appDisableApi", metadata: ["value": "\(disabled)"])
            if wasProcessing { await closeSegment(at: time, final: false) }
            // Disabled: queued pings stay on disk, unsent, until enabled again or the next launch.
            if disabled { await delivery.pause(instanceID) } else { await delivery.resume(instanceID) }
        case .setDebug(let on):
            reporter.setLogLevel(on ? .debug : (appInfo.debugLevel?.logLevel ?? .critical))
        case .setOptOut(let optOut):
            guard accept(optOut ? .userOptOut : .userOptIn, at: time) else { return }
            logger.info("userOptOut", metadata: ["optOut": "\(optOut)"])
            // Credit so far goes out under the old choice, so every ping carries one opt state.
            await reportPendingSeconds(at: time)
            privacy.appOptOut = optOut
            privacy.persistChoice(environment.storage)
            identity = privacy.pingIdentity
        case .configReceived(let config):
            await apply(config, at: time)
        case .inputError(let code, let message):
            report(code, message, at: time)
        case .barrier(let continuation):
            await delivery.waitUntilIdle()
            continuation.resume()
        }
    }

    private func apply(_ config: CensusConfig, at time: Double) async {
        durationPingInterval = config.durationPingInterval
        guard config.enabled else {
            disabledByCensus = true
            if state == .processing { await closeSegment(at: time, final: false) }
            state = .disabled
            snapshot.withLock { $0.state = .disabled }
            report(.failedStartProcessor, "the census disabled measurement for appid \(appInfo.appID)", at: time)
            return
        }
        report(.startup, "AppMeter \(sdkVersion) is initialized for \(appInfo.appName)", at: time)
    }

    /// Applies the lifecycle table: moves to the next state, or counts and logs an ignored call.
    private func accept(_ call: LifecycleCall, at time: Double) -> Bool {
        guard let next = LifecycleTable.next(after: call, in: state) else {
            logger.warning("\(LifecycleTable.ignoredReason(for: call, in: state))")
            snapshot.withLock { $0.ignoredCalls += 1 }
            return false
        }
        state = next
        snapshot.withLock { $0.state = next }
        return true
    }

    private func load(_ metadata: AssetMetadata, at time: Double) async {
        if sessionID == nil {
            sessionID = environment.identifiers.newSessionID()
        }
        let key = AssetKey(metadata.kind, metadata.assetID)
        if case .content(let content) = metadata {
            currentContent = content
        }
        if segment?.key == key {
            segment?.metadata = metadata
            return
        }
        await closeSegment(at: time, final: false)
        segment = Segment(metadata: metadata, key: key)
    }

    private func playhead(_ position: Int64, at time: Double) async {
        guard position >= 0 else {
            report(.invalidPlayheadPosition, "playheadPosition \(position) is negative; ignored", at: time)
            return
        }
        guard var current = segment else {
            logger.warning("playheadPosition ignored: no metadata loaded; call loadMetadata first")
            snapshot.withLock { $0.ignoredCalls += 1 }
            return
        }
        logger.debug("playheadPosition", metadata: ["position": "\(position)"])
        if current.start == nil { current.start = time }
        if !viewed.contains(current.key) {
            viewed.insert(current.key)
            await send(.view, for: current, at: time)
        }
        if references[current.key, default: PlayheadCrediting()].report(position) {
            current.pendingSeconds += 1
            snapshot.withLock { $0.creditedSeconds[current.key, default: 0] += 1 }
            if current.pendingSeconds >= durationPingInterval {
                await sendDuration(for: &current, at: time, final: false)
            } else if current.pendingSeconds - current.checkpointedSeconds >= environment.checkpointInterval {
                await checkpoint(&current, at: time)
            }
        }
        segment = current
    }

    /// Sends the current segment's not-yet-reported seconds and keeps the segment open.
    private func reportPendingSeconds(at time: Double) async {
        guard var current = segment, current.pendingSeconds > 0 else { return }
        await sendDuration(for: &current, at: time, final: false)
        segment = current
    }

    /// Ends the current segment, sending its not-yet-reported credited seconds.
    private func closeSegment(at time: Double, final: Bool) async {
        guard var current = segment else { return }
        segment = nil
        if current.pendingSeconds > 0 {
            await sendDuration(for: &current, at: time, final: final)
        }
    }

    /// Ends the instance (released by the app, or the process is shutting down): the open segment's
    /// credit goes out in a ping rather than waiting in a checkpoint for the next launch.
    func shutdown(at time: Double) async {
        await closeSegment(at: time, final: false)
        await delivery.deliverPromptly()
        await delivery.detach(instanceID)
    }

    private func send(_ kind: PingKind, for segment: Segment, at time: Double) async {
        let ping = buildPing(kind, for: segment, credited: 0, at: time, final: false, id: environment.identifiers.newPingID())
        snapshot.withLock { $0.pingsBuilt += 1 }
        await delivery.enqueue(PingRecord(ping: ping, recovered: false))
    }

    /// Sends the pending seconds in a duration ping with the id the checkpoint already carries,
    /// replacing the checkpoint.
    private func sendDuration(for segment: inout Segment, at time: Double, final: Bool) async {
        let id = segment.nextDurationPingID ?? environment.identifiers.newPingID()
        let ping = buildPing(.duration, for: segment, credited: segment.pendingSeconds, at: time, final: final, id: id)
        snapshot.withLock { $0.pingsBuilt += 1 }
        await delivery.enqueue(PingRecord(ping: ping, recovered: false), clearingCheckpointOf: instanceID)
        segment.pendingSeconds = 0
        segment.checkpointedSeconds = 0
        segment.nextDurationPingID = nil
    }

    /// Stores the pending seconds as a provisional duration ping, sent only if this process dies
    /// before the real one is built.
    private func checkpoint(_ segment: inout Segment, at time: Double) async {
        let id = segment.nextDurationPingID ?? environment.identifiers.newPingID()
        segment.nextDurationPingID = id
        let ping = buildPing(.duration, for: segment, credited: segment.pendingSeconds, at: time, final: false, id: id)
        await delivery.checkpoint(instanceID, record: PingRecord(ping: ping, recovered: true))
        segment.checkpointedSeconds = segment.pendingSeconds
    }

    private func buildPing(
        _ kind: PingKind, for segment: Segment, credited: Int64, at time: Double, final: Bool, id: String
    ) -> Ping {
        let facts = PingFacts(
            appInfo: appInfo, sdkVersion: sdkVersion, sessionID: sessionID ?? "",
            channelName: channelName, asset: segment.metadata, content: currentContent,
            kind: kind, creditedSeconds: credited, segmentStart: segment.start ?? time, createdAt: time,
            isFinal: final, pingID: id, identity: identity)
        let ping = PingBuilder.build(facts)
        logger.debug("ping built", metadata: ["ping": "\(ping.parameters)"])
        return ping
    }

    private func report(_ code: MeterEventCode, _ description: String, at time: Double) {
        reporter.report(code, description, at: time)
    }
}
