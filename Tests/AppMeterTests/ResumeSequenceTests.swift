import AppMeter
import Foundation
import NielsenAppApi
import Testing

/// Every guide's interruption sequence credits the whole duration played: 60 s of content, an
/// interruption after 30 s, and the rest after it.
@Suite struct ResumeSequenceTests {
    enum Resume: String, CaseIterable, Sendable {
        /// Ireland: stop, then playheads only.
        case playheadsOnly
        /// stop, then loadMetadata and playheads (the API reference: "call loadMetadata ... when resuming").
        case loadMetadata
        /// stop, then play, loadMetadata and playheads (DTVR guide: "Call play once the playback resumes").
        case playAndLoadMetadata
        /// stop, then play and playheads.
        case play
        /// Buffering without stop: play called again, playheads go on.
        case bufferingWithPlayAgain
    }

    @Test(arguments: Resume.allCases)
    func theWholeDurationIsCredited(_ resume: Resume) async {
        let meter = MeterHarness()
        meter.api.play()
        meter.api.loadMetadata(Fixtures.content())
        meter.play(0...30)
        switch resume {
        case .bufferingWithPlayAgain:
            meter.clock.advance(by: 5)
            meter.api.play()
        default:
            meter.api.stop()
            meter.clock.advance(by: 20)
            if resume == .play || resume == .playAndLoadMetadata { meter.api.play() }
            if resume == .loadMetadata || resume == .playAndLoadMetadata { meter.api.loadMetadata(Fixtures.content()) }
        }
        meter.play(31...60)
        meter.api.end()
        #expect(await meter.creditedOnTheWire() == ["content/vid345-67483": 60], "\(resume)")
    }
}
