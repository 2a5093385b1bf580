import AppMeter
import Foundation
import Logging
import NielsenAppApi
import Testing

/// No silent key in the simplified API (the simplified guide's metadata tables, the header's
/// `TrackEventParam…` keys): a required key missing is an error naming it (M2, ST2), a documented key
/// without effect is named once per instance in a WARN line (SA5a).
@Suite struct SimplifiedKeysTests {
    /// The guide's "sample event for DCR", as published (its `playheadPosition` filled in per second).
    static let dcrSampleContent = [
        "assetName": "Big Buck Bunny", "assetid": "B66473", "length": "3600", "program": "MyProgram",
        "segB": "CustomSegmentValueB", "segC": "segmentC", "title": "S2,E3", "type": "content",
        "section": "cloudApi_app", "airdate": "20180120 10:00:00", "isfullepisode": "y",
        "crossId1": "Standard Episode ID", "crossId2": "Content Originator", "adloadtype": "2",
    ]

    static func event(_ position: Int, content: [String: String], page: [String: String] = [:], type: String = "content",
                      extra: [String: Any] = [:]) -> [String: Any] {
        ["event": "playhead", "type": type, "playheadPosition": String(position),
         "metadata": ["content": content, "ad": [String: String](), "static": page] as [String: Any]]
            .merging(extra) { $1 }
    }

    /// Content "Required: Yes" in the simplified table but not in the standard API's: `assetName`,
    /// `section`, `crossId1`; static `assetid` and `segA`. Each missing one is 1004 naming it, once
    /// when the metadata is taken, and the content and the page are measured.
    @Test func theSimplifiedTablesRequiredKeysAreReportedByName() async {
        let errors = ErrorCollector()
        let meter = MeterHarness(simplified: true, trackerDelegate: errors)
        for second in 0...20 {
            meter.clock.advance(by: 1)
            meter.tracker.trackEvent(Self.event(second, content: Fixtures.content()))
        }
        meter.tracker.trackEvent(["event": "complete", "type": "content"])
        let page = ["type": "static", "section": "homeSection"]
        for second in 0...10 {
            meter.clock.advance(by: 1)
            meter.tracker.trackEvent(Self.event(second, content: [:], page: page, type: "static"))
        }
        meter.tracker.trackEvent(["event": "complete", "type": "static"])
        let pings = await meter.pings()
        #expect(errors.codes == [1004, 1004, 1004, 1004, 1004])
        #expect(errors.descriptions.map { $0.split(separator: "'").dropFirst().first.map(String.init) ?? "" }
            == ["section", "assetName", "crossId1", "assetid", "segA"])
        #expect(pings.contains { $0.summary == "timer content/vid345-67483 20" })
        #expect(pings.contains { $0.assetID == "homeSection" })
    }

    /// The same keys through `NielsenAppApi.loadMetadata` are the standard API's: not required there.
    @Test func theStandardAPIDoesNotRequireTheSimplifiedTablesKeys() {
        let content = MetadataParser.parse(Fixtures.content(), market: .generic)
        #expect(content.issues.isEmpty)
        let simplified = MetadataParser.parse(Fixtures.content(), market: .generic, tables: .simplified)
        #expect(simplified.issues.map(\.key) == ["section", "assetName", "crossId1"])
        #expect(simplified.issues.allSatisfy { $0.code == .emptyValue })
    }

    /// The guide's DCR sample event measures with no error; `assetName`, content `section` and the
    /// header's `buffering` and `buttonEvent` are each named once, however many calls carry them.
    @Test func keysWithoutEffectAreEachNamedOnceInAWarning() async {
        let errors = ErrorCollector()
        let log = LogCapture()
        let meter = MeterHarness(appInfo: MeterHarness.appInfo(extra: ["nol_devDebug": "WARN"]), log: log,
                                 simplified: true, trackerDelegate: errors)
        for second in 0...30 {
            meter.clock.advance(by: 1)
            meter.tracker.trackEvent(Self.event(second, content: Self.dcrSampleContent,
                                                extra: [TrackEventParamBuffering: "false", TrackEventParamButtonEvent: TrackEventParamButtonPlay]))
        }
        meter.tracker.trackEvent(["event": "complete", "type": "content"])
        let pings = await meter.pings()
        #expect(errors.codes.isEmpty)
        #expect(pings.contains { $0.summary == "timer content/B66473 30" })
        let warnings = log.lines(at: .warning)
        for key in ["'metadata.content.assetName'", "'metadata.content.section'", "'buffering'", "'buttonEvent'"] {
            #expect(warnings.filter { $0.contains(key) && $0.contains("has no effect") }.count == 1, "\(key)")
        }

        let quiet = LogCapture()
        let plain = MeterHarness(appInfo: MeterHarness.appInfo(extra: ["nol_devDebug": "WARN"]), log: quiet, simplified: true)
        plain.tracker.trackEvent(Self.event(0, content: Fixtures.content()))
        await plain.settle()
        #expect(!quiet.lines(at: .warning).contains { $0.contains("has no effect") })
    }
}
