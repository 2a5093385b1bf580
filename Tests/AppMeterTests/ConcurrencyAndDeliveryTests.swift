import AppMeter
import Dispatch
import Foundation
import NielsenAppApi
import Testing

@Suite struct ConcurrencyAndDeliveryTests {
    @Test func eightThreadsCallingOneInstanceLoseNothing() async {
        let meter = MeterHarness(durationPingInterval: 7)
        let api = meter.api
        api.play()
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for round in 0..<50 {
                api.loadMetadata(Fixtures.content("asset-\(thread % 3)"))
                for position in Int64(0)..<20 { api.playheadPosition(Int64(round) * 20 + position) }
                if round % 7 == 0 { api.stop() }
                if round % 11 == 0 { api.loadMetadata(["type": "preroll", "assetid": "ad-\(thread)"]) }
                _ = api.lastErrorDict
                _ = api.appDisableApi
            }
        }
        api.end()
        // An asset viewed but never credited has a view ping (0 s) and no snapshot entry.
        let onTheWire = await meter.creditedOnTheWire().filter { $0.value > 0 }
        let credited = meter.snapshot.creditedSeconds.reduce(into: [String: Int]()) { $0[$1.key.description] = Int($1.value) }
        #expect(onTheWire == credited)
        #expect(!credited.isEmpty)
        #expect(meter.api.meter!.diagnostics.counters.delivered == meter.snapshot.pingsBuilt)
    }

    @Test func callsFromOneThreadAreProcessedInOrder() async {
        let meter = MeterHarness()
        meter.api.play()
        for asset in 0..<20 {
            meter.api.loadMetadata(Fixtures.content("a\(asset)"))
            meter.play(0...2)
        }
        meter.api.end()
        let views = await meter.pings().filter { $0.kind == "view" }.map(\.assetID)
        #expect(views == (0..<20).map { "a\($0)" })
    }

    @Test func delegateHearsStartupWithTheDocumentedKeys() async throws {
        let events = EventCollector()
        let meter = MeterHarness(delegate: events)
        await meter.api.waitUntilConfigured()
        let startup = try #require(events.events.first)
        #expect(startup["eventCode"] as? Int == 2001)
        #expect((startup["eventDescription"] as? String)?.isEmpty == false)
        #expect(startup["timestamp"] is Date)
        #expect(meter.api.lastEventDict["eventCode"] as? Int == 2001)
        #expect(meter.api.meterVersion == MeterInstance.platformVersion)
    }

    @Test func outagesAreRetriedInOrderAndNothingIsDropped() async {
        let meter = MeterHarness()
        meter.transport.script([
            .failure("connection refused"), .response(status: 503, retryAfter: 1, body: Data()),
            .response(status: 500, retryAfter: nil, body: Data()), .response(status: 429, retryAfter: nil, body: Data()),
        ])
        meter.api.play()
        meter.api.loadMetadata(Fixtures.content())
        meter.play(0...130)
        meter.api.end()
        await meter.settle()
        // Four failed attempts (the backlog goes out as batches), then everything once, in order.
        let attempts = meter.transport.requests.filter { $0.url.path.contains("/cgi-bin/gn") }
        let delivered = attempts.dropFirst(4).flatMap(DecodedPing.all)
        #expect(delivered.map(\.summary) == [
            "view content/vid345-67483 0", "timer content/vid345-67483 60",
            "timer content/vid345-67483 60", "timer content/vid345-67483 10",
        ])
        #expect(Set(delivered.map { $0["pingid"] }).count == 4)
        #expect(meter.api.meter!.diagnostics.counters == DeliveryCounters(delivered: 4, rejected: 0, retried: 4))
        // One report per outage, at its start: the collector was unreachable.
        #expect(meter.api.lastErrorDict["eventCode"] as? Int == MeterEventCode.networkConnectionFailure.rawValue)
    }

    @Test func aPingTheCollectorRefusesIsDroppedAndCounted() async {
        let meter = MeterHarness()
        // The view ping is refused, sent once more without its descriptive fields, refused again.
        meter.transport.script([.response(status: 400, retryAfter: nil, body: Data()),
                                .response(status: 400, retryAfter: nil, body: Data())])
        meter.api.play()
        meter.api.loadMetadata(Fixtures.content())
        meter.play(0...5)
        meter.api.end()
        await meter.settle()
        #expect(meter.api.meter!.diagnostics.counters
                == DeliveryCounters(delivered: 1, rejected: 1, retried: 0, rejectedSeconds: 0, resentWithoutDescription: 1))
    }

    @Test func startupWaitsForAValidConfigAndMeasuringGoesOnMeanwhile() async {
        let events = EventCollector()
        let meter = MeterHarness(delegate: events) { transport in
            transport.scriptConfig([
                .failure("connection refused"),
                .response(status: 503, retryAfter: nil, body: Data()),
                .response(status: 200, retryAfter: nil, body: Data("<html>".utf8)),
            ])
        }
        meter.api.play()
        meter.api.loadMetadata(Fixtures.content())
        meter.play(0...10)
        meter.api.end()
        await meter.api.meter!.waitUntilConfigured(advancing: meter.clock)
        #expect(await meter.creditedOnTheWire() == ["content/vid345-67483": 10])
        #expect(events.events.map { $0["eventCode"] as? Int } == [2001])
        #expect(meter.transport.configRequests.count == 4)
        let hello = meter.transport.configRequests[0].url.absoluteString
        #expect(hello.contains("/cgi-bin/cfg?cfgv=1&apid=P") && hello.contains("&sdkv=\(MeterInstance.platformVersion)"))
    }

    @Test func theCensusKillSwitchDisablesAndTheAppCannotReEnable() async {
        let meter = MeterHarness { $0.scriptConfig([], then: RecordingTransport.config(enabled: false)) }
        await meter.api.waitUntilConfigured()
        #expect(meter.snapshot.state == .disabledByCensus)
        meter.api.appDisableApi = false
        meter.api.play()
        meter.api.loadMetadata(Fixtures.content())
        meter.play(0...10)
        #expect(await meter.pings().isEmpty)
        #expect(meter.snapshot.state == .disabledByCensus)
        #expect(meter.api.lastErrorDict["eventCode"] as? Int == MeterEventCode.failedStartProcessor.rawValue)
    }
}

/// Collects the events a delegate receives.
final class EventCollector: NielsenAppApiDelegate, Sendable {
    private let received = Locked([[AnyHashable: Any]]())
    func nielsenAppApi(_ appApi: NielsenAppApi, eventOccurred event: [AnyHashable: Any]) {
        received.withLock { $0.append(event) }
    }
    var events: [[AnyHashable: Any]] { received.withLock { $0 } }
}
