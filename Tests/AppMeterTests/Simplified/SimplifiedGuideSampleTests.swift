// The Swift samples of the simplified guide, compiled against `NielsenAppApi`: NielsenInit's
// `createEventTracker`, SDKMethods (`loadStatic`, `loadContent`, "Putting it all together"'s
// `loadPreRollAd`) and the ViewController's calls to the tracker. UIKit/AVFoundation parts are
// replaced by a driver that plays the same sequence on the virtual clock; the lines that touch
// the tracker are as published (typo fixes marked "typo:").
import AppMeter
import Foundation
import NielsenAppApi
import Testing

extension NielsenInit {
    // "NielsenInit.swift" (typo: the first copy passes `appInformation1`).
    class func createEventTracker(delegate: NielsenEventTrackerDelegate) -> NielsenEventTracker? {
        var nielsenEventTracker: NielsenEventTracker?
        let appInformation = [
            "appid": "PDA7D5EE6-B1B8-4123-9277-2A788XXXXXXX",
            "appversion": "1.0",
            "appname": "Amazing app",
            "sfcode": "dcr",
            "nol_devDebug": "DEBUG",
        ]
        nielsenEventTracker = NielsenEventTracker(appInfo: appInformation, delegate: delegate)
        return nielsenEventTracker
    }
}

// "SDKMethods.swift"
class SDKMethods: NSObject {
    var url = NSURL(string: "")

    func loadStatic() -> [String: Any] {
        let staticObj = [
            "type": "static",
            "section": "homeSection",
            "segA": "CustomSegmentValueA",
            "segB": "CustomSegmentValueB",
            "segC": "CustomSegmentValueC"]
        let metadata = [
            "content": [String: String](),
            "ad": [String: String](),
            "static": staticObj] as [String: Any]
        let data = [
            "metadata": metadata,
            "event": "playhead",
            "type": "static",
            "playheadPosition": "0"] as [String: Any]
        return data
    }

    func loadContent() -> [String: Any] {
        url = NSURL(string: "http://www.nielseninternet.com/NielsenConsumer/prog_index.m3u8")
        let content = [
            "assetName": "ChromeCast1",
            "assetid": "C77664",
            "length": "3600",
            "program": "MyProgram",
            "segB": "CustomSegmentValueB",
            "segC": "segmentC",
            "title": "S2,E3",
            "type": "content",
            "section": "myApi_app",
            "airdate": "20180120 10:00:00",
            "isfullepisode": "y",
            "adloadtype": "2",
            "channelName": "My Channel 1",
            "pipMode": "false"]
        let metadata = [
            "content": content,
            "ad": [String: String](),
            "static": [String: String]()] as [String: Any]
        let data = [
            "metadata": metadata,
            "event": "playhead",
            "type": "content",
            "playheadPosition": "0"] as [String: Any]
        return data
    }

    // "Putting it all together": loadPreRollAd.
    func loadPreRollAd() -> [String: Any] {
        url = NSURL(string: "http://www.nielseninternet.com/NWCC-3002/prog_index.m3u8")
        let content = [
            "assetName": "Big Buck Bunny",
            "assetid": "B66473",
            "length": "3600",
            "program": "MyProgram",
            "segB": "CustomSegmentValueB",
            "segC": "segmentC",
            "title": "S2,E3",
            "type": "content",
            "section": "app_Mainpage",
            "airdate": "20180120 10:00:00",
            "isfullepisode": "y",
            "crossId1": "Standard Episode ID",
            "crossId2": "Content Originator",
            "adloadtype": "2",
        ]
        let staticObj = [
            "type": "static",
            "section": "homeSection",
            "segA": "CustomSegmentValueA",
            "segB": "CustomSegmentValueB",
            "segC": "CustomSegmentValueC",
        ]
        let ad = [
            "assetid": "AD12345",
            "title": "ADTestTitle",
            "adldx": "1",
            "type": "preroll",
            "length": "20",
        ]
        let metadata = [
            "content": content,
            "ad": ad,
            "static": staticObj,
        ] as [String: Any]
        let data = [
            "metadata": metadata,
            "event": "playhead",
            "playheadPosition": "0",
            "type": "ad",
        ] as [String: Any]
        return data
    }
}

/// The ViewController's calls to the tracker ("Sample code: ViewController"), driven by `tick`
/// in place of AVPlayer's periodic observer and end-of-item notification.
final class SimplifiedViewController: NielsenEventTrackerDelegate {
    var sdkMethods: SDKMethods!
    var nielsenEventTracker: NielsenEventTracker!
    var data: [String: Any]!
    var totalVideosPlayed = 0
    let totalVideos = 2

    func viewDidLoad(tracker: NielsenEventTracker) {
        self.nielsenEventTracker = tracker
        sdkMethods = SDKMethods()
        self.data = sdkMethods.loadPreRollAd()
    }

    func viewDidAppear() {
        let staticData = sdkMethods.loadStatic()
        self.nielsenEventTracker.trackEvent(staticData)
    }

    /// The periodic time observer's body, at the player's time `time`.
    func tick(_ time: Double) {
        let pos = Int64(time)
        let playHeadPos = String(pos)
        self.data.updateValue(playHeadPos, forKey: "playheadPosition")
        self.nielsenEventTracker.trackEvent(self.data)
    }

    func rateChanged(to rate: Float) {
        if rate == 0.0 {
            self.data.updateValue("pause", forKey: "event")
            self.nielsenEventTracker.trackEvent(self.data)
        }
        if rate == 1.0 {
            self.data.updateValue("playhead", forKey: "event")
        }
    }

    func playerDidFinishPlaying() {
        totalVideosPlayed += 1
        if totalVideosPlayed == totalVideos {
            sendCompleteEventToSDK()
        } else {
            self.data.updateValue("adStop", forKey: "event")
            self.nielsenEventTracker.trackEvent(data)
        }
        if totalVideosPlayed != totalVideos {
            self.data = sdkMethods.loadContent()
        }
    }

    // "Managing Ads": `adStop` and a new `adldx` at once (the guide sets `adldx` at the top level).
    func managingAdsExample() {
        self.data.updateValue("adStop", forKey: "event")
        self.data.updateValue("223", forKey: "adldx")
        self.nielsenEventTracker.trackEvent(data)
    }

    func sendCompleteEventToSDK() {
        self.data.updateValue("complete", forKey: "event")
        self.nielsenEventTracker.trackEvent(self.data)
    }
}

@Suite struct SimplifiedGuideSampleTests {
    /// The sample's appid is a placeholder (`…XXXXXXX`): no tracker, and the reason at ERROR.
    @Test func createEventTrackerWithThePlaceholderAppidSaysWhy() {
        let controller = SimplifiedViewController()
        #expect(NielsenInit.createEventTracker(delegate: controller) == nil)
    }

    /// The sample's flow: a 20-second preroll with the static page shown meanwhile, `adStop`, 40
    /// seconds of content paused once for a minute, then `complete`.
    @Test func theSampleViewControllerMeasuresAdStaticAndContent() async {
        let controller = SimplifiedViewController()
        let meter = MeterHarness(simplified: true, trackerDelegate: controller)
        controller.viewDidLoad(tracker: meter.tracker)
        for second in 0..<20 {
            meter.clock.advance(by: 1)
            controller.tick(Double(second))
        }
        controller.playerDidFinishPlaying()
        controller.viewDidAppear()
        meter.clock.advance(by: 3)
        for second in 0..<20 {
            meter.clock.advance(by: 1)
            controller.tick(Double(second) + 0.4)
        }
        controller.rateChanged(to: 0)
        meter.clock.advance(by: 60)
        controller.rateChanged(to: 1)
        for second in 20..<40 {
            meter.clock.advance(by: 1)
            controller.tick(Double(second))
        }
        controller.playerDidFinishPlaying()
        let pings = await meter.pings()
        #expect(pings.map(\.summary) == [
            "view ad/AD12345 0", "timer ad/AD12345 19", "view content/homeSection 0", "timer content/homeSection 4",
            "view content/C77664 0", "timer content/C77664 19",
            "view content/C77664 0", "timer content/C77664 20",   // resumed after the pause: a new viewing session (L3c)
        ])
        #expect(Set(pings.suffix(2).map { $0["c59"]! }).count == 1 && pings[5]["c59"] != pings[6]["c59"])
        #expect(pings.last?["davty"] == "2")
        #expect(pings.first?["adidx"] == "1/1")
    }

    /// "Managing Ads": the same ad played twice, separated by the snippet's `adStop`, is two ads.
    @Test func managingAdsAdStopMakesTheSameAdANewOne() async {
        let controller = SimplifiedViewController()
        let meter = MeterHarness(simplified: true, trackerDelegate: controller)
        controller.viewDidLoad(tracker: meter.tracker)
        for second in 0..<10 {
            meter.clock.advance(by: 1)
            controller.tick(Double(second))
        }
        controller.managingAdsExample()
        controller.rateChanged(to: 1)
        for second in 0..<10 {
            meter.clock.advance(by: 1)
            controller.tick(Double(second))
        }
        controller.sendCompleteEventToSDK()
        let pings = await meter.pings()
        #expect(pings.map(\.summary) == ["view ad/AD12345 0", "timer ad/AD12345 9", "view ad/AD12345 0", "timer ad/AD12345 9"])
        #expect(pings.filter { $0.kind == "view" }.map { $0["adidx"]! } == ["1/1", "2/2"])
    }
}
