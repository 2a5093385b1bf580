import AppMeter
import MeterWire
import Testing

/// A checkpoint reuses the previous checkpoint's ping while only playheads came, changing its
/// credit and time: it must always equal the ping built from scratch at that moment.
@Suite struct CheckpointReuseTests {
    /// The checkpoint's ping in `effects`.
    private func checkpoint(in effects: [MeterEffect]) -> Ping? {
        for case .checkpoint(let record, _, _) in effects { return record.ping }
        return nil
    }

    /// The ping enqueued by `effects`.
    private func enqueued(in effects: [MeterEffect]) -> Ping? {
        for case .enqueue(let record, _) in effects { return record.ping }
        return nil
    }

    /// Plays to the second checkpoint (`between` runs after the first), then stops at the same
    /// instant: the stop's duration ping is built from scratch with the same id, credit and time.
    private func secondCheckpointAndStop(between: (inout CoreDriver) -> Void) -> (checkpoint: Ping?, stop: Ping?) {
        var core = CoreDriver()
        core(.play(channelName: "C"))
        core(CoreDriver.content())
        core.playheads(0...5)
        between(&core)
        var second: Ping?
        for position in Int64(6)...10 {
            second = checkpoint(in: core.effects(.playhead(position), after: 1)) ?? second
        }
        return (second, enqueued(in: core.effects(.stop)))
    }

    @Test func aReusedCheckpointEqualsThePingBuiltFromScratch() throws {
        let (checkpoint, stop) = secondCheckpointAndStop { _ in }
        let reused = try #require(checkpoint)
        #expect(reused.creditedSeconds == 10)
        #expect(reused == stop)
    }

    @Test func metadataUpdatedBetweenCheckpointsIsInTheNextOne() throws {
        let (checkpoint, stop) = secondCheckpointAndStop { core in
            // The same asset again with another title: no new segment, no ping, but new metadata.
            core(.loadMetadata(MetadataParser.parse(
                ["type": "content", "assetid": "vid1", "program": "P", "title": "Second title", "length": "3600",
                 "airdate": "20261121 20:00:00", "isfullepisode": "y", "adloadtype": "2"],
                market: CoreDriver.appInfo.market)))
        }
        let updated = try #require(checkpoint)
        #expect(updated[PingField.title.name] == "Second title")
        #expect(updated == stop)
    }

    /// The reused ping is changed in place only when nothing else holds it: checkpoints an owner
    /// still holds keep the credit and time they were emitted with.
    @Test func checkpointsHeldElsewhereKeepTheirCreditAndTime() throws {
        var core = CoreDriver()
        core(.play(channelName: "C"))
        core(CoreDriver.content())
        var held: [Ping] = []
        for position in Int64(0)...20 {
            if let ping = checkpoint(in: core.effects(.playhead(position), after: 1)) { held.append(ping) }
        }
        #expect(held.count >= 3)
        #expect(Set(held.map(\.creditedSeconds)).count == held.count)
        for ping in held {
            #expect(ping[PingField.creditedSeconds.name] == PingField.creditedSeconds.wireValue(String(ping.creditedSeconds)))
            #expect(ping[PingField.createdAt.name] == PingField.createdAt.wireValue(String(Int64(ping.createdAt))))
        }
    }

    /// The minute's duration pings of `core`, played from the start for `seconds`; `between` runs
    /// after the 57th second, between the last checkpoint and the first duration ping.
    private func durationPings(_ core: inout CoreDriver, seconds: Int64, between: (inout CoreDriver) -> Void = { _ in }) -> [Ping] {
        core(.play(channelName: "C"))
        core(CoreDriver.content())
        var pings: [Ping] = []
        for position in Int64(0)...seconds {
            if position == 58 { between(&core) }
            for case .enqueue(let record, _) in core.effects(.playhead(position), after: 1) where record.ping.kind == .duration {
                pings.append(record.ping)
            }
        }
        return pings
    }

    /// A duration ping that is not final is the last checkpoint's ping changed in place (D8): it
    /// must equal, field for field, the one a core that never checkpoints builds from scratch.
    @Test func aDurationPingChangedFromTheLastCheckpointEqualsOneBuiltFromScratch() {
        var checkpointing = CoreDriver()
        var never = CoreDriver(checkpointInterval: 10_000)
        let reused = durationPings(&checkpointing, seconds: 185)
        let built = durationPings(&never, seconds: 185)
        #expect(reused.count == 3)
        #expect(reused.map(\.creditedSeconds) == [60, 60, 60])
        #expect(reused == built)
    }

    @Test func metadataUpdatedAfterTheLastCheckpointIsInTheDurationPing() throws {
        var core = CoreDriver()
        let pings = durationPings(&core, seconds: 65) { core in
            core(.loadMetadata(MetadataParser.parse(
                ["type": "content", "assetid": "vid1", "program": "P", "title": "Second title", "length": "3600",
                 "airdate": "20261121 20:00:00", "isfullepisode": "y", "adloadtype": "2"],
                market: CoreDriver.appInfo.market)))
        }
        let ping = try #require(pings.first)
        #expect(ping[PingField.title.name] == "Second title")
        #expect(ping.creditedSeconds == 60)
    }
}
