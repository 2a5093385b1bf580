import MeterContract

/// DTVR, driven by the Nielsen ID3 tags the player hands to `sendID3` (docs/protocol.md §2b): a
/// view ping at the first tag of a source (CID) in a viewing session, a tag ping for every distinct
/// tag (the guide's "buffers the data for transfer to Nielsen's collection facility": the census
/// credits from them), then duration pings with the seconds ``ID3Crediting`` credits, every
/// `durationPingInterval` seconds and when the source's segment closes, with credit checkpoints in
/// between. Playheads play no part.
struct DTVRPart: StreamPart {
    typealias Rule = ID3Crediting

    /// One source being credited, from its first tag until stop, end, a new source or new metadata.
    struct Segment: CreditedSegment, Sendable {
        var cid: String
        var lastTag: NielsenID3Tag
        /// When ``lastTag`` was passed to `sendID3`.
        var lastTagTime: MeterInstant
        var start: MeterInstant
        var pending = PendingCredit()
    }

    var cadence: CreditCadence
    /// The DTVR metadata loaded (DTVR-only, or DCR content with `adModel`); nil: tags are not taken.
    private(set) var metadata: DTVRMetadata?
    private var segment: Segment?
    /// The last tag taken: the same tag again is not counted twice.
    private var lastOwner: String?
    private var rules: [String: Rule] = [:]
    private var viewed: Set<String> = []
    /// `play` came and no `loadMetadata` since: tags measure under the play's channel (decisions.md T4).
    private var playedWithoutMetadata = false

    /// What tags are credited under: the loaded DTVR metadata, else the play's channel with the
    /// broadcast's ads (`adModel` 1), the ID3 feed of a linear channel.
    private var metadataInForce: DTVRMetadata? {
        metadata ?? (playedWithoutMetadata ? DTVRMetadata(adModel: .linear, channelName: "") : nil)
    }

    init(durationPingInterval: Int64, checkpointInterval: Int64) {
        cadence = CreditCadence(durationPingInterval: durationPingInterval, checkpointInterval: checkpointInterval, slot: .dtvr)
    }

    /// A new viewing session: every source gets a view ping again.
    mutating func startSession() {
        viewed.removeAll()
    }

    /// `play` with no metadata loaded since: tags are credited under `play`'s channel name (or
    /// `defaultChannelName`), as the API reference's `play` row says of "an ID3 fed product such as
    /// DTVR" when "the client does not want to send in all the CMS metadata".
    mutating func played() {
        playedWithoutMetadata = true
    }

    /// `loadMetadata`: DTVR metadata (or an asset without it, which ends DTVR crediting). An ad
    /// changes nothing: the tags of a joint stream go on during its ads.
    mutating func load(_ asset: AssetMetadata, _ context: PingContext, at time: MeterInstant, _ out: inout Emission) {
        guard asset.kind != .ad else { return }
        let metadata = asset.dtvrMetadata
        playedWithoutMetadata = false
        if metadata == nil || metadata?.channelName != self.metadata?.channelName {
            close(final: false, context, at: time, &out)
        }
        self.metadata = metadata
    }

    /// `sendID3` with a Nielsen tag.
    mutating func tag(_ tag: NielsenID3Tag, _ context: PingContext, at time: MeterInstant, _ out: inout Emission) {
        guard let metadata = metadataInForce else {
            out.log(.warning, "sendID3 ignored: no DTVR metadata loaded; call play, or loadMetadata with type, channelName and adModel, first")
            out.ignoredCalls += 1
            return
        }
        guard tag.ownerString != lastOwner else {
            out.log(.debug, "sendID3: the same tag again, not counted twice")
            return
        }
        lastOwner = tag.ownerString
        out.log(.info, "sendID3 \(tag.ownerString)")
        guard let cid = tag.creditCID else {
            out.log(.debug, "sendID3: both CIDs are null; nothing to credit")
            return
        }
        if segment?.cid != cid {
            close(final: false, context, at: time, &out)
            segment = Segment(cid: cid, lastTag: tag, lastTagTime: time, start: time)
        }
        guard var current = segment else { return }
        current.lastTag = tag
        current.lastTagTime = time
        if viewed.insert(cid).inserted {
            out.send(build(.view, current, metadata, credited: 0, context, at: time, final: false, id: context.newPingID()))
        }
        // The tag itself, crediting nothing: the census walks a session's tags with this part's
        // rule (decisions.md T6), and these pings are durable and deduplicated like any other.
        out.send(build(.tag, current, metadata, credited: 0, context, at: time, final: false, id: context.newPingID()))
        let credited = rules[cid, default: Rule()].credit(Rule.Observation(offset: tag.creditOffset, time: time))
        if credited > 0 { out.credit(AssetKey(.dtvr, cid), credited) }
        out.settle(credited, of: &current, cadence, context, at: time) {
            build(.duration, $0, metadata, credited: $1, context, at: time, final: $3, id: $2)
        }
        segment = current
    }

    /// `end`: the stream is over; what is pending goes out as the final ping, references are forgotten.
    mutating func end(_ context: PingContext, at time: MeterInstant, _ out: inout Emission) {
        close(final: true, context, at: time, &out)
        rules.removeAll()
        viewed.removeAll()
        lastOwner = nil
    }

    mutating func reportPending(_ context: PingContext, at time: MeterInstant, _ out: inout Emission) {
        guard var current = segment, let metadata = metadataInForce, current.pending.seconds > 0 else { return }
        sendDuration(&current, metadata, context, at: time, final: false, &out)
        segment = consume current
    }

    mutating func close(final: Bool, _ context: PingContext, at time: MeterInstant, _ out: inout Emission) {
        guard var current = segment else { return }
        segment = nil
        lastOwner = nil
        if let metadata = metadataInForce, current.pending.seconds > 0 {
            sendDuration(&current, metadata, context, at: time, final: final, &out)
        }
    }

    private func sendDuration(
        _ segment: inout Segment, _ metadata: DTVRMetadata, _ context: PingContext, at time: MeterInstant, final: Bool,
        _ out: inout Emission
    ) {
        out.sendPending(of: &segment, final: final, cadence, context, at: time) {
            build(.duration, $0, metadata, credited: $1, context, at: time, final: $3, id: $2)
        }
    }

    private func build(
        _ kind: PingKind, _ segment: Segment, _ metadata: DTVRMetadata, credited: Int64, _ context: PingContext,
        at time: MeterInstant, final: Bool, id: String
    ) -> Ping {
        DTVRPingBuilder.build(DTVRPingFacts(
            context: context, metadata: metadata, cid: segment.cid, tag: segment.lastTag, tagTime: segment.lastTagTime, kind: kind,
            creditedSeconds: credited, segmentStart: segment.start, createdAt: time, isFinal: final, pingID: id))
    }
}
