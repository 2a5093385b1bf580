import AppMeter
import Foundation
import NielsenAppApi
import Testing

/// Digital Ad Ratings: the API reference lists `play`, `loadMetadata` and `end` for DAR, no
/// playheads and no `stop`; such an ad is counted as an impression (its view ping) at `end`.
@Suite struct DigitalAdRatingsTests {
    @Test func anAdEndedWithoutPlayheadsIsAnImpression() async {
        let meter = MeterHarness()
        meter.api.play()
        meter.api.loadMetadata(Fixtures.ad("preroll", "dar-ad-1"))
        meter.clock.advance(by: 15)
        meter.api.end()
        meter.api.loadMetadata(Fixtures.ad("midroll", "dar-ad-2"))
        meter.clock.advance(by: 30)
        meter.api.end()
        let pings = await meter.pings()
        #expect(pings.map(\.summary) == ["view ad/dar-ad-1 0", "view ad/dar-ad-2 0"])
        #expect(pings.allSatisfy { $0["c3"] == "st,a" })
    }

    @Test func anAdSkippedInAPlayedSessionIsNot() async {
        let meter = MeterHarness()
        meter.api.play()
        meter.api.loadMetadata(Fixtures.content())
        meter.play(0...10)
        meter.api.loadMetadata(Fixtures.ad("postroll", "never-played"))
        meter.api.end()
        let pings = await meter.pings()
        #expect(!pings.contains { $0.assetID == "never-played" })
        #expect(await meter.creditedOnTheWire() == ["content/vid345-67483": 10])
    }

    @Test func anAdWithPlayheadsIsMeasuredAsBefore() async {
        let meter = MeterHarness()
        meter.api.play()
        meter.api.loadMetadata(Fixtures.ad("preroll", "ad-1"))
        meter.play(0...15)
        meter.api.end()
        #expect(await meter.pings().map(\.summary) == ["view ad/ad-1 0", "timer ad/ad-1 15"])
    }
}
