import AppMeter
import Foundation
import NielsenAppApi
import Testing

/// DCR static pages (the Italy static page, the simplified guide "Static Metadata") and the
/// app's foreground/background, on the virtual clock.
@Suite struct StaticPageTests {
    static let home = ["type": "static", "assetid": "HomePage", "section": "Home_EntityName_iOS"]

    static func summary(_ ping: DecodedPing) -> String {
        "\(ping.kind) \(ping["rt"]!)/\(ping.assetID) \(ping.credited)"
    }

    /// Moves the clock `seconds` forward in 1-second steps, as time passes for a page on screen.
    static func show(_ meter: MeterHarness, for seconds: Int) {
        for _ in 0..<seconds { meter.clock.advance(by: 1) }
    }

    /// The Italy Static guide: `staticMetadata` + `loadMetadata` on the home page, shown for two and
    /// a half minutes, then `staticEnd`.
    @Test func italyStaticHomePageIsAViewThenItsForegroundTime() async throws {
        let errors = ErrorCollector()
        let meter = MeterHarness(appInfo: MeterHarness.appInfo(sfcode: "it"), delegate: errors)
        meter.api.loadMetadata(Self.home)
        Self.show(meter, for: 150)
        meter.api.staticEnd()
        let pings = await meter.pings()
        #expect(pings.map(Self.summary) == [
            "view text/Home_EntityName_iOS 0", "timer text/Home_EntityName_iOS 60",
            "timer text/Home_EntityName_iOS 60", "timer text/Home_EntityName_iOS 30",
        ])
        #expect(pings.last?["davty"] == "2")
        let view = try #require(pings.first)
        #expect(view["tl"] == "HomePage" && view["c3"] == "st,c" && view["c32"] == "segA,NA")
        #expect(errors.codes.isEmpty)
        #expect(meter.snapshot.creditedSeconds == [AssetKey(.staticPage, "Home_EntityName_iOS"): 150])
    }

    @Test func theBackgroundPausesThePageAndAShortOneKeepsTheView() async {
        let meter = MeterHarness()
        meter.api.loadMetadata(Self.home)
        Self.show(meter, for: 40)
        meter.api.appInBackground()
        meter.clock.advance(by: 600)                      // ten minutes away: not credited
        meter.api.appInForeground()
        Self.show(meter, for: 30)
        meter.api.staticEnd()
        let pings = await meter.pings()
        #expect(pings.map(Self.summary) == [
            "view text/Home_EntityName_iOS 0", "timer text/Home_EntityName_iOS 60", "timer text/Home_EntityName_iOS 10",
        ])
    }

    /// The 30-minute rule: after a long background the page is viewed again in a new session.
    @Test func aLongBackgroundStartsANewSession() async {
        let meter = MeterHarness()
        meter.api.loadMetadata(Self.home)
        Self.show(meter, for: 20)
        meter.api.appInBackground()
        meter.clock.advance(by: 3_600)
        meter.api.appInForeground()
        Self.show(meter, for: 10)
        meter.api.staticEnd()
        let pings = await meter.pings()
        #expect(pings.map(Self.summary) == [
            "view text/Home_EntityName_iOS 0", "view text/Home_EntityName_iOS 0", "timer text/Home_EntityName_iOS 30",
        ])
        #expect(pings.map { $0["c59"]! } == ["sesid,ses1", "sesid,ses2", "sesid,ses2"])
    }

    @Test func aNewSectionIsANewViewTheSameOneIsNotButStaticEndMakesItOne() async {
        let meter = MeterHarness()
        meter.api.loadMetadata(Self.home)
        Self.show(meter, for: 5)
        meter.api.loadMetadata(Self.home)                 // the same page again: nothing new
        Self.show(meter, for: 5)
        meter.api.loadMetadata(["type": "static", "section": "News"])
        Self.show(meter, for: 5)
        meter.api.staticEnd()
        meter.api.loadMetadata(["type": "static", "section": "News"])   // after staticEnd: a new view
        Self.show(meter, for: 5)
        meter.api.end()
        let pings = await meter.pings()
        #expect(pings.map(Self.summary) == [
            "view text/Home_EntityName_iOS 0", "timer text/Home_EntityName_iOS 10",
            "view text/News 0", "timer text/News 5", "view text/News 0", "timer text/News 5",
        ])
    }

    /// Static and video on one instance, as the Italy and Poland flows do: the page, then a video.
    @Test func aStaticPageThenAVideoOnOneInstance() async {
        let meter = MeterHarness()
        meter.api.loadMetadata(Self.home)
        Self.show(meter, for: 12)
        meter.api.play(["channelName": "C"])
        meter.api.loadMetadata(Fixtures.content())
        meter.play(0...20)
        meter.api.end()
        let pings = await meter.pings()
        #expect(pings.map(Self.summary) == [
            "view text/Home_EntityName_iOS 0", "timer text/Home_EntityName_iOS 12",
            "view video/vid345-67483 0", "timer video/vid345-67483 20",
        ])
    }

    /// Video without picture-in-picture is interrupted by the background: what it credited goes
    /// out before iOS may suspend the app, and its playheads resume it in the foreground, in a new
    /// viewing session with its view again (decisions.md L3c). In picture-in-picture it plays on as
    /// one segment.
    @Test(arguments: [("false", ["view video/vid345-67483 0", "timer video/vid345-67483 20",
                                 "view video/vid345-67483 0", "timer video/vid345-67483 20"]),
                      ("true", ["view video/vid345-67483 0", "timer video/vid345-67483 40"])])
    func theBackgroundInterruptsVideoUnlessPictureInPicture(_ pip: String, _ expected: [String]) async {
        let meter = MeterHarness()
        meter.api.play()
        meter.api.loadMetadata(Fixtures.content().merging(["pipMode": pip]) { $1 })
        meter.play(0...20)
        meter.api.appInBackground()
        if pip == "true" { meter.play(21...30) } else { meter.clock.advance(by: 10) }   // without PiP the player pauses
        meter.api.appInForeground()
        meter.play(pip == "true" ? 31...40 : 21...40)
        meter.api.end()
        let pings = await meter.pings()
        #expect(pings.map(Self.summary) == expected)
        #expect(Set(pings.map { $0["c59"] }).count == (pip == "true" ? 1 : 2))
    }

    @Test func staticMetadataIsCheckedAsTheGuidesDescribeIt() {
        let italy = MarketProfile.forSFCode("it")
        #expect(MetadataParser.parse(["type": "static"], market: italy).issues.map(\.key) == ["assetid", "section"])
        let notHome = MetadataParser.parse(["type": "static", "assetid": "Sport", "section": "Sport_Entity_iOS"], market: italy)
        #expect(notHome.issues.map(\.key) == ["section"])
        #expect(notHome.metadata != nil)
        let longSegA = MetadataParser.parse(
            ["type": "static", "assetid": "p", "section": "s", "segA": String(repeating: "a", count: 26)], market: .generic)
        #expect(longSegA.issues.map(\.key) == ["segA"])
    }

    /// The Italy static table marks `assetid` "Required: Yes" (ST2): a page without it is error 1004
    /// naming the key, and is measured by its section all the same.
    @Test func aStaticPageWithoutAssetIDIsReportedByNameAndMeasured() async {
        let errors = ErrorCollector()
        let meter = MeterHarness(appInfo: MeterHarness.appInfo(sfcode: "it"), delegate: errors)
        meter.api.loadMetadata(["type": "static", "section": "Home_EntityName_iOS"])
        Self.show(meter, for: 30)
        meter.api.staticEnd()
        let pings = await meter.pings()
        #expect(pings.map(Self.summary) == ["view text/Home_EntityName_iOS 0", "timer text/Home_EntityName_iOS 30"])
        #expect(errors.codes == [1004])
        #expect(errors.descriptions.first?.contains("'assetid' is missing") == true)
    }

    @Test func moreThan25SegmentValuesAreReportedOnce() async {
        let errors = ErrorCollector()
        let meter = MeterHarness(delegate: errors)
        for page in 0..<14 {
            meter.api.loadMetadata(["type": "static", "assetid": "p\(page)", "section": "s\(page)", "segA": "a\(page)", "segB": "b\(page)"])
        }
        await meter.settle()
        #expect(errors.codes == [MeterEventCode.failedParseMetadata.rawValue])
        #expect(errors.descriptions.first?.contains("26 distinct values") == true)
    }

    /// On Apple platforms UIKit's notifications drive the same commands.
    @Test func uikitNotificationsDriveBackgroundAndForeground() async {
        let meter = MeterHarness()
        meter.api.loadMetadata(Self.home)
        Self.show(meter, for: 10)
        meter.notifications.post(name: Notification.Name("UIApplicationDidEnterBackgroundNotification"), object: nil)
        meter.clock.advance(by: 100)
        meter.notifications.post(name: Notification.Name("UIApplicationWillEnterForegroundNotification"), object: nil)
        Self.show(meter, for: 10)
        meter.api.staticEnd()
        #expect(await meter.pings().map(Self.summary).last == "timer text/Home_EntityName_iOS 20")
    }
}
