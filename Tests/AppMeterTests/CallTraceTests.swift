@testable import AppMeter
import Foundation
import MeterWire
import NielsenAppApi
import Testing

/// The SDK's call trace (docs/certification.md §1): when it is on, what it records, how it travels.
@Suite struct CallTraceTests {
    /// The trace batches the SDK posted, in order.
    static func batches(_ transport: RecordingTransport) -> [CallTraceBatch] {
        transport.requests.filter { $0.url.path.hasSuffix(WireRoute.trace) }.compactMap { request in
            request.body.flatMap { try? CallTraceBatch.decode($0).get() }
        }
    }

    @Test func aDebugSessionTracesEveryCallWithItsEffects() async throws {
        let meter = MeterHarness(appInfo: MeterHarness.appInfo(extra: ["nol_devDebug": "DEBUG"]))
        await meter.api.waitUntilConfigured()
        meter.api.play(["channelName": "Channel 1"])
        meter.api.loadMetadata(Fixtures.content(length: "30"))
        meter.play(0...30)
        meter.api.end()
        let pings = await meter.pings()
        let session = try #require(meter.api.meter?.traceSession)
        let batches = Self.batches(meter.transport)
        #expect(batches.allSatisfy { $0.session == session && ($0.sdk.hasPrefix("al.") || $0.sdk.hasPrefix("ai.")) })
        let entries = batches.flatMap(\.entries)
        #expect(entries.map(\.seq) == Array(0..<entries.count))
        #expect(entries.map(\.call).filter { $0 != "playheadPosition" && $0 != "wakeUp" }
                == ["init", "config", "play", "loadMetadata", "end"])
        #expect(entries.filter { $0.call == "playheadPosition" }.map { $0[argument: "position"] } == (0...30).map(String.init))
        let load = try #require(entries.first { $0.call == "loadMetadata" })
        #expect(load.args["assetid"] == "vid345-67483" && load.args["type"] == "content" && load.args["length"] == "30")
        #expect(load.state == "processing")
        #expect(entries.first?.args["nol_devDebug"] == "DEBUG")
        // Every ping on the wire is in the trace, under the call that built it.
        let traced = Set(entries.flatMap { $0.pings.map(\.id) })
        #expect(Set(pings.compactMap { $0["pingid"] }).isSubset(of: traced))
        #expect(!pings.isEmpty)
    }

    @Test(arguments: [
        (["nol_devDebug": "INFO"], false),
        ([:], false),
        (["nol_devDebug": "DEBUG", "appmeter_trace": "false"], false),
        (["appmeter_trace": "true"], true),
        (["nol_devDebug": "DEBUG"], true),
    ] as [([String: String], Bool)])
    func tracingIsOnOnlyInADevelopmentConfiguration(_ extra: [String: String], _ traces: Bool) async {
        let meter = MeterHarness(appInfo: MeterHarness.appInfo(extra: extra))
        await meter.api.waitUntilConfigured()
        meter.api.play(nil)
        await meter.settle()
        #expect((meter.api.meter?.traceSession != nil) == traces)
        #expect(Self.batches(meter.transport).isEmpty == !traces)
    }

    /// During an outage the queue's bound drops trace batches before any ping: tracing never costs
    /// a credited second.
    @Test func aFullQueueDropsTheTraceBeforeAnyPing() async {
        let meter = MeterHarness(appInfo: MeterHarness.appInfo(extra: ["nol_devDebug": "DEBUG"]),
                                 queueBounds: QueueBounds(maxCount: 16))
        await meter.api.waitUntilConfigured()
        meter.transport.script(Array(repeating: .failure("offline"), count: 400))
        meter.api.play(nil)
        meter.api.loadMetadata(Fixtures.content(length: "600"))
        meter.play(0...600)
        meter.api.end()
        // Every attempt is recorded: count each ping once, as the census does.
        var seen: Set<String> = []
        let delivered = await meter.pings().filter { seen.insert($0["pingid"] ?? "").inserted }
        #expect(delivered.filter { $0.assetID == "vid345-67483" }.reduce(0) { $0 + $1.credited } == 600)
        #expect((meter.api.meter?.diagnostics.counters.droppedOverflow ?? 0) > 0)
    }

    @Test func theVendorsCollectorIsNeverTracedTo() throws {
        let info = try AppInfo.parse(["appid": MeterHarness.newAppID(), "nol_devDebug": "DEBUG", "appmeter_trace": "true"]).get()
        #expect(!info.tracesCalls)
        let explicit = try AppInfo.parse(["appid": MeterHarness.newAppID(), "appmeter_trace": "true",
                                          "nol_collectorURL": "https://secure-dcr.imrworldwide.com"]).get()
        #expect(!explicit.tracesCalls)
    }

    @Test func playheadsGoInBatchesAndCallsGoAtOnce() throws {
        let info = try AppInfo.parse(MeterHarness.appInfo(extra: ["nol_devDebug": "DEBUG"])).get()
        var recorder = CallTraceRecorder(session: "s", appID: info.appID, settings: info.values, sdkVersion: "al.1", flavor: "global",
                                         at: MeterInstant(secondsSince1970: 100))
        let first = recorder.record(.play(channelName: nil), at: MeterInstant(secondsSince1970: 100), effects: [], state: .processing)
        #expect(first?.entries.map(\.call) == ["init", "play"])
        var sent: [CallTraceBatch] = []
        for second in 0..<120 {
            let time = MeterInstant(secondsSince1970: 101 + Double(second) * 0.01)
            if let batch = recorder.record(.playhead(Int64(second)), at: time, effects: [], state: .processing) { sent.append(batch) }
            #expect(recorder.record(.wakeUp, at: time, effects: [], state: .processing) == nil)
        }
        #expect(sent.map(\.entries.count) == [50, 50])
        #expect(recorder.flush()?.entries.count == 20)
        #expect(recorder.flush() == nil)
    }

    @Test func aTraceStopsAtItsLimitWithATruncatedEntry() throws {
        let info = try AppInfo.parse(MeterHarness.appInfo(extra: ["nol_devDebug": "DEBUG"])).get()
        var recorder = CallTraceRecorder(session: "s", appID: info.appID, settings: info.values, sdkVersion: "al.1", flavor: "global",
                                         at: MeterInstant(secondsSince1970: 100))
        var entries: [CallTraceEntry] = []
        for index in 0..<(CallTraceRecorder.limit + 100) {
            if let batch = recorder.record(.stop, at: MeterInstant(secondsSince1970: 100 + Double(index)), effects: [], state: .idle) {
                entries += batch.entries
            }
        }
        entries += recorder.flush()?.entries ?? []
        #expect(entries.count == CallTraceRecorder.limit)
        #expect(entries.last?.call == "truncated")
    }
}
