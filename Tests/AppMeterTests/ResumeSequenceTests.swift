import AppMeter
import Foundation
import NielsenAppApi
import Testing

/// Every guide's interruption sequence credits the whole duration played: 60 s of content, an
/// interruption after 30 s, and the rest after it. The resume is "the new viewing session" the
/// guides name (decisions.md L3c): a new `c59` and the content's view ping again, the seconds
/// unchanged; buffering without `stop` or `play` is no interruption.
@Suite struct ResumeSequenceTests {
    enum Resume: String, CaseIterable, Sendable {
        /// Ireland: stop, then playheads only ("start sending pings playheadPosition for the new viewing session").
        case playheadsOnly
        /// Italy and Poland: stop, then loadMetadata and playheads ("Start sending API calls – 'loadMetadata'
        /// and 'playheadPosition' for the new viewing session").
        case loadMetadata
        /// The API reference: stop, then play, loadMetadata and playheads ("call play, loadMetadata and
        /// sendID3 / playheadPosition").
        case playAndLoadMetadata
        /// stop, then play and playheads ("Call play while starting or resuming a streaming session").
        case play
        /// The app goes to the background (video without picture-in-picture: the SDK closes it, ST4),
        /// comes back, and playheads go on.
        case background
        /// Buffering without stop: play called again, playheads go on (a new session by `play`, L3a).
        case bufferingWithPlayAgain
        /// Buffering without stop or play: the playheads stall and go on, in the same session.
        case bufferingAlone

        /// Viewing sessions, and so the content's view pings, the resume leaves on the wire.
        var sessions: Int { self == .bufferingAlone ? 1 : 2 }
    }

    @Test(arguments: Resume.allCases)
    func theWholeDurationIsCreditedAndTheResumeIsANewViewingSession(_ resume: Resume) async {
        let meter = MeterHarness()
        meter.api.play()
        meter.api.loadMetadata(Fixtures.content())
        meter.play(0...30)
        switch resume {
        case .bufferingWithPlayAgain:
            meter.clock.advance(by: 5)
            meter.api.play()
        case .bufferingAlone:
            meter.clock.advance(by: 5)
        case .background:
            meter.api.appInBackground()
            meter.clock.advance(by: 20)
            meter.api.appInForeground()
        default:
            meter.api.stop()
            meter.clock.advance(by: 20)
            if resume == .play || resume == .playAndLoadMetadata { meter.api.play() }
            if resume == .loadMetadata || resume == .playAndLoadMetadata { meter.api.loadMetadata(Fixtures.content()) }
        }
        meter.play(31...60)
        meter.api.end()
        #expect(await meter.creditedOnTheWire() == ["content/vid345-67483": 60], "\(resume)")
        let pings = await meter.pings()
        #expect(pings.filter { $0.kind == "view" }.count == resume.sessions, "\(resume)")
        #expect(Set(pings.map { $0["c59"] }).count == resume.sessions, "\(resume)")
        // Every session opens with the content's view ping, and only the last one holds the end.
        #expect(pings.first?.kind == "view" && pings.last?["davty"] == "2", "\(resume)")
        #expect(meter.snapshot.ignoredCalls == 0, "\(resume)")
    }

    /// The API reference's "stop – Call this API when the playback is paused, switches between
    /// content and ad (within the same content playback)": an ad break after `stop`, and the
    /// content after it, is no resume; the session and the content's view stay.
    @Test func anAdBreakAfterStopIsNotAResume() async {
        let meter = MeterHarness()
        meter.api.play()
        meter.api.loadMetadata(Fixtures.content())
        meter.play(0...30)
        meter.api.stop()
        meter.api.loadMetadata(Fixtures.ad("midroll", "mid1"))
        meter.play(0...10)
        meter.api.stop()
        meter.api.loadMetadata(Fixtures.content())
        meter.play(31...60)
        meter.api.end()
        let pings = await meter.pings()
        #expect(pings.filter { $0.kind == "view" }.map(\.assetID) == ["vid345-67483", "mid1"])
        #expect(Set(pings.map { $0["c59"] }) == ["sesid,ses1"])
        #expect(await meter.creditedOnTheWire() == ["content/vid345-67483": 60, "ad/mid1": 10])
    }

    /// A paused midroll resumed with `loadMetadata` is a new viewing session: the ad is viewed
    /// again, keeps its place in the break, and the content after the break is viewed in the new
    /// session too.
    @Test func aResumedAdKeepsItsPlaceInTheBreakInTheNewSession() async {
        let meter = MeterHarness()
        meter.api.play()
        meter.api.loadMetadata(Fixtures.content())
        meter.play(0...30)
        meter.api.stop()
        meter.api.loadMetadata(Fixtures.ad("midroll", "mid1"))
        meter.play(0...10)
        meter.api.stop()                              // paused mid-ad
        meter.clock.advance(by: 20)
        meter.api.loadMetadata(Fixtures.ad("midroll", "mid1"))
        meter.play(11...20)
        meter.api.stop()
        meter.api.loadMetadata(Fixtures.content())
        meter.play(31...60)
        meter.api.end()
        let pings = await meter.pings()
        #expect(pings.filter { $0.kind == "view" }.map { "\($0.assetID) \($0["c59"]!)" } == [
            "vid345-67483 sesid,ses1", "mid1 sesid,ses1", "mid1 sesid,ses2", "vid345-67483 sesid,ses2",
        ])
        #expect(Set(pings.filter { $0.assetID == "mid1" }.map { $0["adidx"] }).count == 1)
        #expect(await meter.creditedOnTheWire() == ["content/vid345-67483": 60, "ad/mid1": 20])
    }
}
