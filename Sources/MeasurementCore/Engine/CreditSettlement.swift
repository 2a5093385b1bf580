/// How a part's credit becomes pings: a duration ping every `durationPingInterval` credited
/// seconds, a checkpoint in `slot` at least every `checkpointInterval` seconds in between.
struct CreditCadence: Sendable {
    /// Credited seconds per duration ping (the census's config may change it).
    var durationPingInterval: Int64
    /// Credited seconds between checkpoints.
    let checkpointInterval: Int64
    /// Where the part's checkpoint is kept.
    let slot: CheckpointSlot
}

/// What a product part credits: an open segment (an asset, a source, a page, the app's run)
/// with its credit not yet in a ping.
protocol CreditedSegment {
    var pending: PendingCredit { get set }
}

/// Builds a segment's duration ping: the segment, its seconds, the ping id, whether it is final.
typealias DurationPingBuilder<Segment> = (_ segment: Segment, _ seconds: Int64, _ id: String, _ final: Bool) -> Ping

extension Emission {
    /// The one step from credit to pings, for every part: adds `credited` seconds to what
    /// `segment` has pending and sends the duration ping or stores the checkpoint that is due.
    mutating func settle<Segment: CreditedSegment>(
        _ credited: Int64, of segment: inout Segment, _ cadence: CreditCadence, _ context: PingContext,
        at time: MeterInstant, durationPing: DurationPingBuilder<Segment>
    ) {
        settle(segment.pending.add(credited, durationPingInterval: cadence.durationPingInterval,
                                   checkpointInterval: cadence.checkpointInterval),
               of: &segment, cadence, context, at: time, durationPing: durationPing)
    }

    /// ``settle(_:of:_:_:at:durationPing:)`` once the credit is added and `due` is known: a part
    /// that credits every second calls this only when something is due, so that its builder (a
    /// closure holding the context) is not made for the four seconds in five that need none.
    mutating func settle<Segment: CreditedSegment>(
        _ due: PendingCredit.Due, of segment: inout Segment, _ cadence: CreditCadence, _ context: PingContext,
        at time: MeterInstant, durationPing: DurationPingBuilder<Segment>
    ) {
        switch due {
        case .durationPing: sendPending(of: &segment, final: false, cadence, context, at: time, durationPing: durationPing)
        case .checkpoint: checkpoint(&segment, cadence, context, at: time, durationPing: durationPing)
        case .nothing: break
        }
    }

    /// Sends what `segment` has pending in a duration ping with the id its checkpoint already
    /// carries, replacing that checkpoint. A duration ping that is not final is the last
    /// checkpoint's ping with its credit and time changed while the context's revision stays, as
    /// the next checkpoint would be (D8): it is that ping, changed in place, not built again.
    mutating func sendPending<Segment: CreditedSegment>(
        of segment: inout Segment, final: Bool, _ cadence: CreditCadence, _ context: PingContext, at time: MeterInstant,
        durationPing: DurationPingBuilder<Segment>
    ) {
        let (seconds, id, reused) = segment.pending.takeForPing(context.identifiers.newPingID, reusing: !final, revision: context.revision, at: time)
        // Not `??`: its autoclosure around the builder made the compiler copy the whole part.
        if let reused {
            send(reused, clearing: cadence.slot)
        } else {
            send(durationPing(segment, seconds, id, final), clearing: cadence.slot)
        }
    }

    /// Stores the pending seconds as a provisional duration ping, sent only if the process dies
    /// before the real one is built.
    private mutating func checkpoint<Segment: CreditedSegment>(
        _ segment: inout Segment, _ cadence: CreditCadence, _ context: PingContext, at time: MeterInstant,
        durationPing: DurationPingBuilder<Segment>
    ) {
        let id = segment.pending.idForCheckpoint(context.identifiers.newPingID)
        let credited = segment.pending.seconds
        // Nothing a ping says but its credit and time changes while the context's revision stays:
        // the last checkpoint's ping, taken out of the segment so that its storage is not shared
        // once the last record is written, changed in place (``Ping/setCredit(_:createdAt:)``).
        let checkpoint: Ping
        let creditOnly: Bool
        if let reused = segment.pending.lastCheckpoint.take()?.changed(id: id, seconds: credited, revision: context.revision, at: time) {
            checkpoint = reused
            creditOnly = true
        } else {
            checkpoint = durationPing(segment, credited, id, false)
            creditOnly = false
        }
        segment.pending.lastCheckpoint = PendingCredit.Checkpoint(revision: context.revision, ping: checkpoint)
        effects.append(.checkpoint(PingRecord(ping: checkpoint, recovered: true), slot: cadence.slot, creditOnly: creditOnly))
    }
}
