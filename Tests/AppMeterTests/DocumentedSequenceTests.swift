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
            "view ad/mid1 0", "timer ad/mid1 10",
            "view ad/mid1 0", "timer ad/mid1 10",    // resumed: "for the new viewing session" (L3c)
            "view content/vid345-67483 0",           // the content's first playhead in that session
        ] + Array(repeating: "timer content/vid345-67483 60", count: 5) + [
            "timer content/vid345-67483 0",          // end: the final ping (davty=2), nothing left to credit
            "view ad/post1 0", "timer ad/post1 10",
        ])
        // The midroll's resume starts the second viewing session; its ad keeps its place.
        let firstResumed = pings.firstIndex { $0.assetID == "mid1" && $0.kind == "view" }! + 2
        #expect(Set(pings[..<firstResumed].map { $0["c59"]! }) == ["sesid,ses1"])
        #expect(Set(pings[firstResumed...].map { $0["c59"]! }) == ["sesid,ses2"])
        #expect(Set(pings.filter { $0.assetID == "mid1" }.map { $0["adidx"]! }).count == 1)
        #expect(pings.filter { $0["davty"] == "2" }.map(\.summary) == ["timer content/vid345-67483 0"])
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

    /// the Ireland guide: "Once the playback resumes, start sending pings
    /// playheadPosition for the new viewing session" — `stop`, then playheads only: a new `c59`
    /// and a view ping again, the seconds going on (decisions.md L3c).
    @Test func irelandResumeAfterStopWithPlayheadsOnlyIsANewViewingSession() async {
        let meter = MeterHarness(appInfo: MeterHarness.appInfo(sfcode: "ire"))
        meter.api.play(["channelName": "ChannelName"])
        meter.api.loadMetadata(Fixtures.content())
        meter.play(0...100)
        meter.api.stop()
        meter.clock.advance(by: 300)                 // paused for five minutes
        meter.play(101...200)                        // resumed: playheads only, as the guide says
        meter.api.end()

        let pings = await meter.pings()
        #expect(pings.map(\.summary) == [
            "view content/vid345-67483 0",
            "timer content/vid345-67483 60",
            "timer content/vid345-67483 40",
            "view content/vid345-67483 0",
            "timer content/vid345-67483 60",
            "timer content/vid345-67483 40",
        ])
        #expect(pings.map { $0["davty"]! } == ["0", "1", "1", "0", "1", "2"])
        #expect(pings.map { $0["c59"]! } == ["sesid,ses1", "sesid,ses1", "sesid,ses1", "sesid,ses2", "sesid,ses2", "sesid,ses2"])
        #expect(meter.snapshot.ignoredCalls == 0)
        #expect(meter.snapshot.creditedSeconds[AssetKey(.content, "vid345-67483")] == 200)
        #expect(meter.snapshot.state == .idle)
    }

    @Test func afterEndPlayheadsAloneResumeNothing() async {
        let meter = MeterHarness()
        meter.api.loadMetadata(Fixtures.content())
        meter.play(0...10)
        meter.api.end()
        meter.play(11...20)                          // the content ended: nothing to resume
        #expect(await meter.creditedOnTheWire() == ["content/vid345-67483": 10])
        #expect(meter.snapshot.ignoredCalls == 10)
    }

    /// the Poland page use case 2: "nielsenApi.stop(); // Always call stop irrespective of
    /// postroll is followed or not", then "End of Stream: nielsenApi.end()". The channel name is
    /// the app name when `play` gives none.
    @Test func polandStopThenEndEndsTheContent() async {
        let meter = MeterHarness(appInfo: MeterHarness.appInfo(sfcode: "pl"))
        let api = meter.api
        api.play()
        api.loadMetadata(Fixtures.content())
        api.loadMetadata(Fixtures.ad("preroll", "pre1"))
        meter.play(0...10)
        api.stop()
        api.loadMetadata(Fixtures.content())
        meter.play(0...30)
        api.stop()                                   // always stop…
        api.end()                                    // …then end
        api.loadMetadata(Fixtures.content())         // the same content again: a new view, from 0
        meter.play(0...5)
        api.stop()

        let pings = await meter.pings()
        #expect(pings.map(\.summary) == [
            "view ad/pre1 0", "timer ad/pre1 10",
            "view content/vid345-67483 0", "timer content/vid345-67483 30",
            "timer content/vid345-67483 0",
            "view content/vid345-67483 0", "timer content/vid345-67483 5",
        ])
        #expect(pings[4]["davty"] == "2")
        #expect(pings.allSatisfy { $0["asn"] == "Harness" })
        #expect(meter.snapshot.ignoredCalls == 0)
    }

    /// the Italy video page / the Italy audio page: "If changing audio or listening to a new
    /// audio, call play() each time" — a new viewing session with the new channel name.
    @Test func italyPlayForEachNewStreamStartsANewSession() async {
        let meter = MeterHarness(appInfo: MeterHarness.appInfo(sfcode: "it"))
        meter.api.play(["channelName": "Radio Uno"])
        meter.api.loadMetadata(Fixtures.content("stream-1"))
        meter.play(0...20)
        meter.api.play(["channelName": "Radio Due"])  // no stop: the app switches streams
        meter.api.loadMetadata(Fixtures.content("stream-2"))
        meter.play(0...10)
        meter.api.end()
        let pings = await meter.pings()
        #expect(pings.map(\.summary) == [
            "view content/stream-1 0", "timer content/stream-1 20",
            "view content/stream-2 0", "timer content/stream-2 10",
        ])
        #expect(pings.map { "\($0["asn"]!) \($0["c59"]!)" } == [
            "Radio Uno sesid,ses1", "Radio Uno sesid,ses1", "Radio Due sesid,ses2", "Radio Due sesid,ses2",
        ])
        #expect(meter.snapshot.ignoredCalls == 0)
    }

    /// the simplified guide "Managing Ads": the same ad back to back with a new `adldx` (or
    /// `adIdx`) is a new ad: its own view and its own credit from playhead 0.
    @Test func theSameAdBackToBackWithANewIndexIsTwoAds() async {
        let meter = MeterHarness()
        meter.api.play()
        meter.api.loadMetadata(Fixtures.content())
        meter.api.loadMetadata(["type": "midroll", "assetid": "ad-x", "adldx": "1"])
        meter.play(0...15)
        meter.api.loadMetadata(["type": "midroll", "assetid": "ad-x", "adIdx": "2"])
        meter.play(0...15)
        meter.api.stop()
        let pings = await meter.pings()
        #expect(pings.map(\.summary) == [
            "view ad/ad-x 0", "timer ad/ad-x 15", "view ad/ad-x 0", "timer ad/ad-x 15",
        ])
        #expect(pings.map { $0["adidx"]! } == ["1/1", "1/1", "2/2", "2/2"])
        #expect(await meter.creditedOnTheWire() == ["ad/ad-x": 30])
    }

    /// Live as the guides describe it: length 86400 (24×7), or an event's planned length, or 0,
    /// with playheads that are Unix times; a VOD of unknown length (0, small playheads) is not live.
    @Test(arguments: [("86400", Int64(0), true), ("7200", 1_700_000_100, true), ("0", 1_700_000_100, true),
                      ("0", 0, false), ("3600", 0, false)])
    func liveFollowsTheLengthAndThePlayheads(_ length: String, _ first: Int64, _ live: Bool) async {
        let meter = MeterHarness()
        meter.api.loadMetadata(Fixtures.content("a", length: length))
        meter.play(first...(first + 3))
        meter.api.end()
        #expect(await meter.pings().allSatisfy { $0["c58"] == "isLive,\(live)" })
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
