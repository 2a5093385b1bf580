import AppMeter
import Foundation
import MeterWire
import NielsenAppApi
import Testing

/// Data flows one way: facade → core → delivery, and what becomes of a ping goes back only to the
/// instance that built it; waiting for delivery never holds up the core.
@Suite struct OneWayFlowTests {
    @Test func aRefusedPingIsReportedToTheInstanceThatBuiltItAndToNoOther() async {
        let storage = InMemoryStorage()
        let transport = RecordingTransport()
        let builder = MeterHarness(storage: storage, transport: transport)
        let bystander = MeterHarness(storage: storage, transport: transport)   // same queue
        await builder.api.waitUntilConfigured()
        await bystander.api.waitUntilConfigured()
        // Refused as built and once more without its descriptive fields (docs/protocol.md §2).
        transport.script(Array(repeating: .response(status: 400, retryAfter: nil, body: Data("c27 is bad".utf8)), count: 2))
        builder.api.loadMetadata(Fixtures.content())
        builder.api.playheadPosition(0)
        await builder.settle()
        #expect(builder.api.lastErrorDict?["eventCode"] as? Int == MeterEventCode.failedSendPing.rawValue)
        #expect(bystander.api.lastErrorDict == nil)
        #expect(bystander.api.meter!.diagnostics.counters.rejected == 1)   // the queue is shared, its counters too
    }

    /// `flush()` used to wait for delivery inside the engine: during an outage every later call
    /// stayed unprocessed and uncheckpointed, so a kill lost it all.
    @Test(.timeLimit(.minutes(1)))
    func callsAfterAFlushAreProcessedAndCheckpointedDuringAnOutage() async throws {
        let meter = MeterHarness()
        meter.transport.script(Array(repeating: .failure("offline"), count: 1_000))
        meter.api.play()
        meter.api.loadMetadata(Fixtures.content())
        meter.play(0...2)
        let flushing = Task.immediate { await meter.api.flush() }   // its barrier is queued now
        meter.play(3...22)
        await meter.processed()
        #expect(meter.snapshot.creditedSeconds == [AssetKey(.content, "vid345-67483"): 22])
        // The whole record, and the credit written since in its short form (decisions.md D14).
        let key = try #require(meter.storage.keys(prefix: "cp-").first { !$0.hasSuffix(InstanceCheckpoints.creditSuffix) })
        let whole = try #require(meter.storage.load(key).flatMap(PingRecordCodec.decode))
        let credit = try #require(meter.storage.load(key + InstanceCheckpoints.creditSuffix))
        #expect(CheckpointCredit.apply(credit, to: whole)?.ping.creditedSeconds == 20)
        // The collector comes back: the retry, when due, delivers everything and the flush returns.
        meter.transport.script([])
        meter.api.end()
        await meter.settle()
        await flushing.value
        #expect(meter.transport.pings.filter { $0.kind == "timer" }.map(\.credited).reduce(0, +) == 22)
    }

    @Test func storageFailuresAreReportedAndPingsAreStillDeliveredFromMemory() async {
        let events = ErrorCollector()
        let clock = VirtualClock()
        let transport = RecordingTransport()
        transport.scriptConfig([], then: RecordingTransport.config())
        let environment = MeterEnvironment(
            clock: clock, transport: transport, identifiers: SequentialIdentifierSource(), storage: FullDisk(),
            identityProvider: MeterHarness.device, measuresAppRun: false)
        let api = NielsenAppApi(appInfo: MeterHarness.appInfo(), delegate: events, environment: environment)!
        api.loadMetadata(Fixtures.content())
        for position in Int64(0)...6 {
            clock.advance(by: 1)
            api.playheadPosition(position)
        }
        api.end()
        await api.meter!.flush(advancing: clock)
        #expect(events.codes.contains(MeterEventCode.fileWriteFailure.rawValue))
        #expect(events.descriptions.contains { $0.contains("could not store a ping") })
        #expect(transport.pings.map(\.summary) == ["view content/vid345-67483 0", "timer content/vid345-67483 6"])
        let diagnostics = api.meter!.diagnostics
        #expect(diagnostics.counters.storageFailures >= 3)   // two pings and the checkpoint
        #expect(diagnostics.inMemoryOnly == 0)
        #expect(diagnostics.counters.delivered == 2)
    }
}

/// Storage that refuses every write, as a full disk does.
final class FullDisk: MeterStorage {
    let identity = "full-disk:\(UUID().uuidString)"
    func load(_ key: String) throws -> Data? { nil }
    func save(_ key: String, _ value: Data?) throws {
        throw StorageFailure(key: key, reason: "No space left on device")
    }
    func keys(prefix: String) throws -> [String] { [] }
}
