import AppMeter
import Foundation
import MeterWire
import NielsenAppApi
import Testing

/// A provider the test drives: it keeps the SDK's `report` and sends what the test says.
final class ScriptedViewability: ViewabilityProvider {
    private let state = Locked((report: (@Sendable (ViewabilitySample) -> Void)?.none, target: ViewabilityTarget?.none, stopped: false))

    func start(_ target: ViewabilityTarget, report: @escaping @Sendable (ViewabilitySample) -> Void) {
        state.withLock { $0 = (report, target, false) }
    }

    func stop() { state.withLock { $0.stopped = true } }

    var target: ViewabilityTarget? { state.withLock { $0.target } }

    /// Reports a sample of a phone in portrait with a 16:9 player.
    func send(visible: Int, volume: Int, player: PixelSize = PixelSize(width: 1170, height: 658)) {
        let report = state.withLock { $0.report }
        report?(ViewabilitySample(visiblePercent: visible, volumePercent: volume, screen: PixelSize(width: 1170, height: 2532),
                                  window: PixelSize(width: 1170, height: 2532), player: player))
    }
}

/// trackViewability (the simplified guide "Viewability and Audibility"), on the virtual clock.
@Suite struct ViewabilityTests {
    static func viewabilityRequests(_ meter: MeterHarness) -> [TransportRequest] {
        meter.transport.requests.filter { $0.url.path.hasSuffix(WireRoute.viewability) }
    }

    @Test func theSeriesGoOutWithEachMeasurementPing() async throws {
        let provider = ScriptedViewability()
        let meter = MeterHarness(appInfo: MeterHarness.appInfo(extra: ["containerId": "100"]), viewability: provider)
        meter.api.trackViewability(["friendlyObstructions": ["7", 8]])
        meter.api.loadMetadata(Fixtures.content())
        provider.send(visible: 100, volume: 50)
        meter.play(0...19)
        provider.send(visible: 40, volume: 50)      // scrolled half away: a new invs item
        meter.play(20...29)
        provider.send(visible: 42, volume: 50)      // moved by 2, under the threshold of 5: same item
        meter.play(30...39)
        provider.send(visible: 42, volume: 0)       // muted: a new inau item
        meter.play(40...70)
        meter.api.end()
        let pings = await meter.pings()
        #expect(provider.target == ViewabilityTarget(viewTag: 100, friendlyObstructionTags: [7, 8]))
        #expect(pings.map(\.summary) == ["view content/vid345-67483 0", "timer content/vid345-67483 60", "timer content/vid345-67483 10"])

        let requests = Self.viewabilityRequests(meter)
        #expect(requests.count == 2)
        let first = try #require(requests.first)
        #expect(first.method == "POST")
        let query = DecodedPing(url: first.url.absoluteString)
        #expect(query["c59"] == pings[1]["c59"] && query["ai"] == "vid345-67483" && query["c61"] == pings[1]["c61"])
        #expect(query["pingid"] != pings[1]["pingid"])
        let start = 1_700_000_001
        let body = try JSONDecoder().decode(ViewabilityReport.self, from: try #require(first.body))
        #expect(body.series[.invs] == [
            .init(value: .percent(100), startOffset: 0, startTimestamp: Int64(start), duration: 19),
            .init(value: .percent(40), startOffset: 20, startTimestamp: Int64(start + 20), duration: 40),
        ])
        #expect(body.series[.inau] == [
            .init(value: .percent(50), startOffset: 0, startTimestamp: Int64(start), duration: 39),
            .init(value: .percent(0), startOffset: 40, startTimestamp: Int64(start + 40), duration: 20),
        ])
        #expect(body.series[.ines] == [.init(value: .size("1170x658"), startOffset: 0, startTimestamp: Int64(start), duration: 60)])
        #expect(body.series[.inss]?.first?.value == .size("1170x2532"))
        #expect(body.viewableSeconds == 19 && body.audibleSeconds == 39 && body.measuredSeconds == 59)
        // The body on the wire, byte for byte (keys sorted).
        #expect(String(decoding: try #require(requests.last?.body), as: UTF8.self)
                == #"{"inau":[[0,61,1700000062,9]],"ines":[["1170x658",61,1700000062,9]],"inss":[["1170x2532",61,1700000062,9]],"#
                + #""invp":[["1170x2532",61,1700000062,9]],"invs":[[42,61,1700000062,9]]}"#)
        // After the flush the series start again at the next playhead.
        let second = try JSONDecoder().decode(ViewabilityReport.self, from: try #require(requests.last?.body))
        #expect(second.series[.invs] == [.init(value: .percent(42), startOffset: 61, startTimestamp: Int64(start + 61), duration: 9)])
    }

    @Test func withoutAProviderOrWithABadTagItSaysWhy() async {
        let errors = ErrorCollector()
        let meter = MeterHarness(delegate: errors)
        meter.api.trackViewability(["viewTag": "100"])
        meter.api.trackViewability(["viewTag": "player"])
        meter.api.trackViewability([:])
        await meter.processed()
        #expect(errors.codes == [6, 2, 2])
        #expect(errors.descriptions[0].contains("no viewability provider"))
        #expect(errors.descriptions[1].contains("'viewTag' player is not an integer view tag"))
        #expect(errors.descriptions[2].contains("no 'containerId'"))
    }

    @Test func theTrackerHasItToo() async throws {
        let provider = ScriptedViewability()
        let meter = MeterHarness(simplified: true, viewability: provider)
        meter.tracker.trackViewability(["viewTag": 5])
        provider.send(visible: 80, volume: 20)
        for second in 0...61 {
            meter.clock.advance(by: 1)
            meter.tracker.trackEvent(["event": "playhead", "type": "content", "playheadPosition": String(second),
                                      "metadata": ["content": Fixtures.content()]])
        }
        await meter.settle()
        let body = try JSONDecoder().decode(ViewabilityReport.self, from: try #require(Self.viewabilityRequests(meter).first?.body))
        #expect(body.viewableSeconds == 60 && body.audibleSeconds == 60)
    }
}
