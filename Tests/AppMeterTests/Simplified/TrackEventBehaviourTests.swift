import AppMeter
import Foundation
import NielsenAppApi
import Testing

/// What `trackEvent` does beyond ordering: ad changes, `adStop`, the 30-minute pause, static
/// `complete`, DTVR tags, opt-out and bad input (the simplified guide).
@Suite struct TrackEventBehaviourTests {
    static let content = FlowStep.contentMetadata

    static func event(_ name: String, _ type: String, _ position: String = "", ad: [String: String] = [:],
                      page: [String: String] = [:]) -> [String: Any] {
        ["event": name, "type": type, "playheadPosition": position,
         "metadata": ["content": content, "ad": ad, "static": page] as [String: Any]]
    }

    /// The guide's `loadPreRollAd()` dictionary, mutated in place every second as its ViewController
    /// does, then `adStop` and the content.
    @Test func theGuideSampleDictionaryMutatedEverySecond() async {
        let meter = MeterHarness(simplified: true)
        var data: [String: Any] = [
            "metadata": ["content": Self.content, "static": ["type": "static", "section": "homeSection"],
                         "ad": ["assetid": "AD12345", "title": "ADTestTitle", "adldx": "1", "type": "preroll", "length": "20"]],
            "event": "playhead", "playheadPosition": "0", "type": "ad",
        ]
        for second in 0..<20 {
            meter.clock.advance(by: 1)
            data.updateValue(String(second), forKey: "playheadPosition")
            meter.tracker.trackEvent(data)
        }
        data.updateValue("adStop", forKey: "event")
        meter.tracker.trackEvent(data)
        data = Self.event("playhead", "content")
        for second in 0..<30 {
            meter.clock.advance(by: 1)
            data.updateValue(String(second), forKey: "playheadPosition")
            meter.tracker.trackEvent(data)
        }
        data.updateValue("complete", forKey: "event")
        meter.tracker.trackEvent(data)
        let pings = await meter.pings()
        #expect(pings.map(\.summary) == [
            "view ad/AD12345 0", "timer ad/AD12345 19", "view content/vid345-67483 0", "timer content/vid345-67483 29",
        ])
        #expect(pings[0]["adidx"] == "1/1")
    }

    @Test func theSameAdTwiceIsTwoAdsAfterAdStopOrANewIndex() async {
        let meter = MeterHarness(simplified: true)
        let ad = ["assetid": "AD1", "type": "midroll"]
        for (index, indexValue) in ["1", "1", "2"].enumerated() {
            for second in 0..<10 {
                meter.clock.advance(by: 1)
                meter.tracker.trackEvent(Self.event("playhead", "ad", String(second), ad: ad.merging(["adldx": indexValue]) { $1 }))
            }
            if index == 0 { meter.tracker.trackEvent(Self.event("adStop", "ad")) }
        }
        let pings = await meter.pings()
        #expect(pings.map(\.summary) == [
            "view ad/AD1 0", "timer ad/AD1 9", "view ad/AD1 0", "timer ad/AD1 9", "view ad/AD1 0",
        ])
        #expect(pings.filter { $0.kind == "view" }.map { $0["adidx"]! } == ["1/1", "2/2", "3/3"])
    }

    /// "Pause is detected by SDK automatically only if the time gap between commands exceeds 30
    /// minutes": the core wakes 30 minutes after the last event and pauses.
    @Test func thirtyMinutesWithoutAnEventIsAPause() async {
        let meter = MeterHarness(simplified: true)
        for second in 0...30 {
            meter.clock.advance(by: 1)
            meter.tracker.trackEvent(Self.event("playhead", "content", String(second)))
        }
        let last = meter.clock.now()
        meter.clock.advance(by: 2_400)
        await meter.settle()
        let paused = meter.transport.pings
        #expect(paused.map(\.summary) == ["view content/vid345-67483 0", "timer content/vid345-67483 30"])
        #expect(paused.last?["c61"] == "createtm,\(Int(last.secondsSince1970 + 1800))")
        for second in 31...40 {
            meter.clock.advance(by: 1)
            meter.tracker.trackEvent(Self.event("playhead", "content", String(second)))
        }
        meter.tracker.trackEvent(Self.event("complete", "content"))
        let all = await meter.pings()
        // The playheads after the pause resume "for the new viewing session" (decisions.md L3c).
        #expect(all.map(\.summary) == [
            "view content/vid345-67483 0", "timer content/vid345-67483 30",
            "view content/vid345-67483 0", "timer content/vid345-67483 10",
        ])
        #expect(all.map { $0["c59"]! } == ["sesid,ses1", "sesid,ses1", "sesid,ses2", "sesid,ses2"])
        #expect(all.last?["davty"] == "2")
    }

    @Test func staticCompleteMakesTheSamePageANewView() async {
        let meter = MeterHarness(simplified: true)
        let page = ["type": "static", "section": "homeSection", "assetid": "AID885-9984"]
        meter.tracker.trackEvent(Self.event("playhead", "static", page: page))
        meter.clock.advance(by: 20)
        meter.tracker.trackEvent(Self.event("playhead", "static", page: page))   // same page: nothing new
        meter.clock.advance(by: 5)
        meter.tracker.trackEvent(Self.event("complete", "static", page: page))
        meter.clock.advance(by: 5)
        meter.tracker.trackEvent(Self.event("playhead", "static", page: page))
        meter.clock.advance(by: 10)
        meter.tracker.trackEvent(Self.event("complete", "static", page: page))
        let pings = await meter.pings()
        #expect(pings.map(\.summary) == [
            "view content/homeSection 0", "timer content/homeSection 25", "view content/homeSection 0", "timer content/homeSection 10",
        ])
        #expect(pings.allSatisfy { $0["rt"] == "text" })
    }

    @Test func dtvrTagsGoThroughId3Data() async {
        let meter = MeterHarness(simplified: true)
        for offset in stride(from: 0, through: 120, by: 10) {
            meter.clock.advance(by: 10)
            meter.tracker.trackEvent(["event": "playhead", "type": "content", "id3Data": Fixtures.tag(offset: 1000 + offset),
                                      "metadata": ["content": Fixtures.dtvr()]])
        }
        let pings = await meter.pings()
        #expect(pings.first?["prd"] == "dtvr")
        #expect(meter.snapshot.creditedSeconds[AssetKey(.dtvr, "R8WHe7pEBeqBhu8jTeXydg==")] == 120)
    }

    /// The guide's DTVR sample event spells `channelname`; its table `channelName`. Both name the channel.
    @Test(arguments: ["channelName", "channelname"])
    func theDTVRSampleEventsChannelIsTheChannel(_ key: String) async {
        let meter = MeterHarness(simplified: true)
        for offset in stride(from: 0, through: 60, by: 10) {
            meter.clock.advance(by: 10)
            meter.tracker.trackEvent(["event": "playhead", "type": "content", "playheadPosition": "",
                                      "id3Data": Fixtures.tag(offset: 1000 + offset),
                                      "metadata": ["content": ["adModel": "1", key: "channel1"], "ad": [:], "static": [:]]])
        }
        let pings = await meter.pings()
        #expect(!pings.isEmpty)
        #expect(pings.allSatisfy { $0["prd"] == "dtvr" && $0["asn"] == "channel1" })
    }

    /// An Objective-C app keeps one `NSMutableDictionary` and changes it after each call (the
    /// guide's sample). The instance reads the event later, on its own task (decisions.md E12):
    /// what it reads must be what was passed, nested containers included. The second event waits
    /// (a playhead flows, the engine is parked until its tick) while the app changes everything.
    @Test func aFoundationEventChangedAfterTheCallIsReadAsPassed() async {
        let meter = MeterHarness(simplified: true)
        meter.tracker.trackEvent(Self.event("playhead", "content", "0"))
        await meter.processed()
        let content = NSMutableDictionary(dictionary: Self.content)
        let metadata = NSMutableDictionary(dictionary: ["content": content])
        let position = NSMutableString(string: "1")
        meter.clock.advance(by: 1)
        meter.tracker.trackEvent(["event": "playhead", "type": "content", "playheadPosition": position,
                                  "metadata": metadata] as [AnyHashable: Any])
        content["assetid"] = "CHANGED-AFTER-THE-CALL"
        metadata["content"] = ["assetid": "REPLACED-AFTER-THE-CALL", "type": "content"]
        position.setString("5000")
        meter.clock.advance(by: 1)
        meter.tracker.trackEvent(Self.event("complete", "content", "2"))
        let pings = await meter.pings()
        #expect(!pings.isEmpty)
        #expect(pings.allSatisfy { $0.assetID == Self.content["assetid"] })
        #expect(pings.map(\.credited).reduce(0, +) == 1)
    }

    @Test func optOutInTheEventAppliesBeforeIt() async {
        let meter = MeterHarness(simplified: true)
        meter.tracker.trackEvent(Self.event("playhead", "content", "0").merging(["optout": "nielsenappsdk://1"]) { $1 })
        await meter.processed()
        #expect(meter.tracker.optOutStatus)
        #expect(await meter.pings().first?["uoo"] == "true")
    }

    @Test func badEventsAreReportedAndIgnored() async {
        let errors = ErrorCollector()
        let meter = MeterHarness(simplified: true, trackerDelegate: errors)
        meter.tracker.trackEvent(["event": "seek", "type": "content"])
        meter.tracker.trackEvent(json: "not json")
        meter.tracker.trackEvent(["event": "playhead", "type": "ad", "metadata": ["ad": [:]] as [String: Any]])
        meter.tracker.trackEvent(json: #"{"event":"playhead","type":"content","playheadPosition":"ten","metadata":{"content":{"assetid":"X","type":"content"}}}"#)
        await meter.processed()
        #expect(Array(errors.codes.prefix(4)) == [2, 2, 1004, 15])
        #expect(errors.descriptions.first?.contains("\"seek\" is not playhead") == true)
    }
}
