import AppMeter
import NielsenAppApi
import Testing

/// The documented call sequences, replayed on a virtual clock; each asserts the exact pings and
/// that the `c27` values of every asset add up to its credited seconds.
@Suite struct DocumentedSequenceTests {
    @Test func irelandUseCase1ContentWithoutAds() async {
        let meter = MeterHarness()
        meter.api.play(["channelName": "ChannelName"])
        meter.api.loadMetadata(Fixtures.content())
        meter.play(0...150)
        meter.api.end()

        let pings = await meter.pings()
        #expect(pings.map(\.summary) == [
            "view content/vid345-67483 0",
            "timer content/vid345-67483 60",
            "timer content/vid345-67483 60",
            "timer content/vid345-67483 30",
        ])
        #expect(pings.map { $0["davty"] } == ["0", "1", "1", "2"])
        #expect(Set(pings.map { $0["c59"] }) == ["sesid,ses1"])
        #expect(await meter.creditedOnTheWire() == ["content/vid345-67483": 150])
        #expect(meter.snapshot.creditedSeconds == [AssetKey(.content, "vid345-67483"): 150])
        #expect(meter.snapshot.state == .idle)
    }

    @Test func irelandUseCase2PreMidAndPostroll() async {
        let meter = MeterHarness()
        let api = meter.api
        api.play(["channelName": "ChannelName"])
        api.loadMetadata(Fixtures.content())
        api.loadMetadata(Fixtures.ad("preroll", "pre1"))
        meter.play(0...15)
        api.stop()
        api.loadMetadata(Fixtures.content())
        meter.play(0...300)
        api.loadMetadata(Fixtures.ad("midroll", "mid1"))
        meter.play(0...10)
        api.stop()                                   // app goes to background: midroll pauses
        api.loadMetadata(Fixtures.ad("midroll", "mid1"))  // foreground: midroll resumes
        meter.play(11...20)
        api.stop()
        api.loadMetadata(Fixtures.content())
        meter.play(301...600)                        // content continues where it left off
        api.end()
        api.loadMetadata(Fixtures.ad("postroll", "post1"))
        meter.play(0...10)
        api.stop()

        let pings = await meter.pings()
        #expect(pings.map(\.summary) == [
            "view ad/pre1 0", "timer ad/pre1 15",
            "view content/vid345-67483 0",
        ] + Array(repeating: "timer content/vid345-67483 60", count: 5) + [
            "view ad/mid1 0", "timer ad/mid1 10", "timer ad/mid1 10",
        ] + Array(repeating: "timer content/vid345-67483 60", count: 5) + [
            "view ad/post1 0", "timer ad/post1 10",
        ])
        #expect(await meter.creditedOnTheWire() == [
            "content/vid345-67483": 600, "ad/pre1": 15, "ad/mid1": 20, "ad/post1": 10,
        ])
        let adPing = pings.first { $0.assetID == "pre1" && $0.kind == "timer" }!
        #expect(adPing["c3"] == "st,a")
        #expect(adPing["cg"] == "ProgramName")  // ads carry the content they play in
        #expect(adPing["sd"] == "")
    }

    @Test func italySequenceWithoutStopBeforeMidrollAndEndBeforePostroll() async {
        let meter = MeterHarness(appInfo: MeterHarness.appInfo(sfcode: "it"))
        let api = meter.api
        api.play()
        api.loadMetadata(Fixtures.content("88675545"))
        api.loadMetadata(Fixtures.ad("preroll", "ad123"))
        meter.play(0...10)
        api.stop()
        api.loadMetadata(Fixtures.content("88675545"))
        meter.play(0...100)
        api.loadMetadata(Fixtures.ad("midroll", "ad456"))
        meter.play(0...10)
        api.stop()
        api.loadMetadata(Fixtures.content("88675545"))
        meter.play(101...200)
        api.end()
        api.loadMetadata(Fixtures.ad("postroll", "ad789"))
        meter.play(0...5)
        api.stop()

        #expect(await meter.creditedOnTheWire() == [
            "content/88675545": 200, "ad/ad123": 10, "ad/ad456": 10, "ad/ad789": 5,
        ])
        let pings = await meter.pings()
        #expect(pings.allSatisfy { $0["asn"] == "defaultChannelName" })
        #expect(pings.filter { $0.kind == "view" }.map(\.assetID) == ["ad123", "88675545", "ad456", "ad789"])
        #expect(meter.snapshot.ignoredCalls == 0)
    }

    @Test func interruptionStopsCreditUntilMetadataIsLoadedAgain() async {
        let meter = MeterHarness()
        meter.api.play(["channelName": "ChannelName"])
        meter.api.loadMetadata(Fixtures.content())
        meter.play(0...100)
        meter.api.stop()
        meter.clock.advance(by: 300)                 // paused for five minutes
        meter.play(101...101)                        // a stray playhead while stopped: ignored
        meter.api.loadMetadata(Fixtures.content())
        meter.play(101...200)
        meter.api.end()

        let pings = await meter.pings()
        #expect(pings.map(\.summary) == [
            "view content/vid345-67483 0",
            "timer content/vid345-67483 60",
            "timer content/vid345-67483 40",
            "timer content/vid345-67483 60",
            "timer content/vid345-67483 40",
        ])
        #expect(meter.snapshot.ignoredCalls == 1)
        #expect(meter.snapshot.creditedSeconds[AssetKey(.content, "vid345-67483")] == 200)
    }

    @Test func seekCreditsNothingAndBecomesTheNewReference() async {
        let meter = MeterHarness()
        meter.api.play()
        meter.api.loadMetadata(Fixtures.content())
        meter.play(0...50)                           // 50 credited
        meter.play([200, 200, 199])                  // seek forward, a repeat, a step back: none
        meter.play(200...250)                        // 199→200 is +1: 51 credited
        meter.api.end()
        #expect(await meter.creditedOnTheWire() == ["content/vid345-67483": 101])
    }

    @Test func liveContentUsesUnixSecondsAndIsFlaggedLive() async {
        let meter = MeterHarness()
        meter.api.play(["channelName": "News 24"])
        meter.api.loadMetadata(Fixtures.content("live-news", length: "86400"))
        let start: Int64 = 1_700_000_100
        meter.play(start...(start + 120))
        meter.api.stop()
        let pings = await meter.pings()
        #expect(await meter.creditedOnTheWire() == ["content/live-news": 120])
        #expect(pings.allSatisfy { $0["c58"] == "isLive,true" && $0["sd"] == "86400" })
    }

    @Test func aNewPlayStartsANewViewingSessionAndViewsAgain() async {
        let meter = MeterHarness()
        meter.api.play()
        meter.api.loadMetadata(Fixtures.content())
        meter.play(0...5)
        meter.api.stop()
        meter.api.play()
        meter.api.loadMetadata(Fixtures.content())
        meter.play(5...10)
        meter.api.end()
        let pings = await meter.pings()
        #expect(pings.map(\.summary) == [
            "view content/vid345-67483 0", "timer content/vid345-67483 5",
            "view content/vid345-67483 0", "timer content/vid345-67483 5",
        ])
        #expect(pings.map { $0["c59"]! } == ["sesid,ses1", "sesid,ses1", "sesid,ses2", "sesid,ses2"])
    }
}
