import MeterWire

/// DCR video and audio content and ads, driven by playheads (docs/protocol.md §2): a view ping at
/// an asset's first playhead, duration pings every `durationPingInterval` credited seconds and
/// when the asset's segment closes, credit checkpoints in between.
struct DCRVideoPart: MeasurementPart {
    typealias Rule = PlayheadCrediting

    /// The asset being measured, from its `loadMetadata` until stop, end or another asset.
    struct Segment: Sendable {
        var metadata: AssetMetadata
        var key: AssetKey
        var start: MeterInstant?
        /// Credited seconds not yet in a ping.
        var pendingSeconds: Int64 = 0
        /// Of those, the seconds already in the durable checkpoint.
        var checkpointedSeconds: Int64 = 0
        /// The id the next duration ping will carry, allocated with the first checkpoint so that
        /// the checkpoint and the ping are the same ping to the census.
        var nextDurationPingID: String?
    }

    var durationPingInterval: Int64
    let checkpointInterval: Int64
    private(set) var segment: Segment?
    /// One rule per asset: references survive ads and `stop`, and are forgotten on `end`.
    private var rules: [AssetKey: Rule] = [:]
    private var viewed: Set<AssetKey> = []
    private var currentContent: ContentMetadata?

    init(durationPingInterval: Int64, checkpointInterval: Int64) {
        self.durationPingInterval = durationPingInterval
        self.checkpointInterval = checkpointInterval
    }

    /// A new viewing session: every asset gets a view ping again.
    mutating func startSession() {
        viewed.removeAll()
    }

    /// `loadMetadata`: the same asset updates its metadata; another closes the current segment.
    mutating func load(_ metadata: AssetMetadata, _ context: PingContext, at time: MeterInstant, _ out: inout Emission) {
        let key = AssetKey(metadata.kind, metadata.assetID)
        if case .content(let content) = metadata { currentContent = content }
        if segment?.key == key {
            segment?.metadata = metadata
            return
        }
        close(final: false, context, at: time, &out)
        segment = Segment(metadata: metadata, key: key)
    }

    /// `playheadPosition`.
    mutating func playhead(_ position: Int64, _ context: PingContext, at time: MeterInstant, _ out: inout Emission) {
        guard position >= 0 else {
            out.report(.invalidPlayheadPosition, "playheadPosition \(position) is negative; ignored")
            return
        }
        guard var current = segment else {
            out.log(.warning, "playheadPosition ignored: no metadata loaded; call loadMetadata first")
            out.progress.ignoredCalls += 1
            return
        }
        out.log(.debug, "playheadPosition \(position)")
        if current.start == nil { current.start = time }
        if viewed.insert(current.key).inserted {
            out.send(build(.view, for: current, credited: 0, context, at: time, final: false, id: context.newPingID()))
        }
        if rules[current.key, default: Rule()].credit(position) > 0 {
            current.pendingSeconds += 1
            out.progress.creditedSeconds[current.key, default: 0] += 1
            if current.pendingSeconds >= durationPingInterval {
                sendDuration(&current, context, at: time, final: false, &out)
            } else if current.pendingSeconds - current.checkpointedSeconds >= checkpointInterval {
                checkpoint(&current, context, at: time, &out)
            }
        }
        segment = current
    }

    /// `end`: closes the content and forgets every reference, so it can be viewed again.
    mutating func end(_ context: PingContext, at time: MeterInstant, _ out: inout Emission) {
        close(final: true, context, at: time, &out)
        rules.removeAll()
        viewed.removeAll()
    }

    mutating func reportPending(_ context: PingContext, at time: MeterInstant, _ out: inout Emission) {
        guard var current = segment, current.pendingSeconds > 0 else { return }
        sendDuration(&current, context, at: time, final: false, &out)
        segment = current
    }

    mutating func close(final: Bool, _ context: PingContext, at time: MeterInstant, _ out: inout Emission) {
        guard var current = segment else { return }
        segment = nil
        if current.pendingSeconds > 0 {
            sendDuration(&current, context, at: time, final: final, &out)
        }
    }

    /// Sends the pending seconds in a duration ping with the id the checkpoint already carries,
    /// replacing the checkpoint.
    private func sendDuration(
        _ segment: inout Segment, _ context: PingContext, at time: MeterInstant, final: Bool, _ out: inout Emission
    ) {
        let id = segment.nextDurationPingID ?? context.newPingID()
        out.send(build(.duration, for: segment, credited: segment.pendingSeconds, context, at: time, final: final, id: id),
                 replacesCheckpoint: true)
        segment.pendingSeconds = 0
        segment.checkpointedSeconds = 0
        segment.nextDurationPingID = nil
    }

    /// Stores the pending seconds as a provisional duration ping, sent only if the process dies
    /// before the real one is built.
    private func checkpoint(_ segment: inout Segment, _ context: PingContext, at time: MeterInstant, _ out: inout Emission) {
        let id = segment.nextDurationPingID ?? context.newPingID()
        segment.nextDurationPingID = id
        let ping = build(.duration, for: segment, credited: segment.pendingSeconds, context, at: time, final: false, id: id)
        out.effects.append(.checkpoint(PingRecord(ping: ping, recovered: true)))
        segment.checkpointedSeconds = segment.pendingSeconds
    }

    private func build(
        _ kind: PingKind, for segment: Segment, credited: Int64, _ context: PingContext, at time: MeterInstant,
        final: Bool, id: String
    ) -> Ping {
        PingBuilder.build(PingFacts(
            context: context, asset: segment.metadata, content: currentContent, kind: kind, creditedSeconds: credited,
            segmentStart: segment.start ?? time, createdAt: time, isFinal: final, pingID: id))
    }
}
