import AppMeter
import Foundation
import Logging
import NielsenAppApi
import Testing

/// The guides' own examples are valid input (decisions.md M11a, C1a): each runs as published and
/// measures without an error event.
@Suite struct GuideExampleTests {
    /// the API reference, "Handling JSON Metadata": the example written to show special
    /// characters in JSON, its Objective-C literal as Swift, comments kept.
    static let referenceRadioExample = [
        "type": "radio", // To send "radio" in metadata string
        "assetid": "WXYZ-FM'101",
        "stationType": "3",
        "provider": "SampleProvider", // To send "SampleProvider" in metadata string
    ]

    /// the simplified guide, DTVR: "Position value is Unix timestamp: "playheadPosition":"1501225191747"".
    static let simplifiedUnixPlayhead = "1501225191747"

    /// the simplified guide, DTVR: "Below is a sample event for DTVR", as published but for
    /// `playheadPosition`, which the sequence fills; the tag's line breaks are the page's rendering
    /// of one JSON string.
    static func simplifiedDTVRSampleEvent(playheadPosition: String) -> [String: Any] {
        [
            "event": "playhead",
            "type": "content",
            "metadata": [
                "content": [
                    "adModel": "1",
                    "channelname": "channel1",
                ],
                "ad": [String: String](),
                "static": [String: String](),
            ] as [String: Any],
            "playheadPosition": playheadPosition,
            "id3Data": "www.nielsen.com/065H2g6E7ZyQ5UdmMAbbpg==/_"
                + "EMc37zfVgq_8KB7baUYfg==/ADQCAmgV1Xyvnynyg60kZO_Ejkcn"
                + "2KLSrTzyJpZZ-QeRn8GpMGTWI7-HrEKzghxyzCyBEoIDv2kA2g1Q"
                + "JmeYOl5GnwfrLDVK2bNLTbQxr1z9VBfxahBcQP5tqbjhyMzdVqrMK"
                + "uvvJO1jhtSXa9AroChb11ZUnG1WVJx2O4M=/33648/22847/00",
        ]
    }

    /// The example breaks two rules of the Digital Audio metadata (call letters in capitals,
    /// `stationType` 1 or 2): each is a WARN line citing the rule, and the station is credited as given.
    @Test func theReferencesRadioExampleIsMeasuredAsPublished() async throws {
        let errors = ErrorCollector()
        let log = LogCapture()
        let meter = MeterHarness(appInfo: MeterHarness.appInfo(extra: ["nol_devDebug": "WARN"]), delegate: errors, log: log)
        meter.api.play()
        meter.api.loadMetadata(Self.referenceRadioExample)
        meter.play(1_700_000_100...1_700_000_190)
        meter.api.end()
        let pings = await meter.pings()
        #expect(errors.codes.isEmpty)
        #expect(pings.map { "\($0.kind) \($0.assetID) \($0.credited)" }
            == ["view WXYZ-FM'101 0", "timer WXYZ-FM'101 60", "timer WXYZ-FM'101 30"])
        let station = try #require(pings.first)
        #expect(station["c3"] == "st,s" && station["sttype"] == "3" && station["prov"] == "SampleProvider")
        let warnings = log.lines(at: .warning)
        #expect(warnings.filter { $0.contains("'stationType'") && $0.contains("Digital Audio") }.count == 1)
        #expect(warnings.filter { $0.contains("'assetid'") && $0.contains("call letters") }.count == 1)
    }

    /// The simplified guide's DTVR sample event with the table's 13-digit playhead, a millisecond
    /// clock stepping by 1,000 each second: no error 15 (nor any other).
    @Test func theSimplifiedDTVRSampleEventMeasuresWithoutError() async {
        let errors = ErrorCollector()
        let meter = MeterHarness(simplified: true, trackerDelegate: errors)
        let start = Int64(Self.simplifiedUnixPlayhead)!
        for second in 0...60 {
            meter.clock.advance(by: 1)
            meter.tracker.trackEvent(Self.simplifiedDTVRSampleEvent(playheadPosition: String(start + Int64(second) * 1_000)))
        }
        meter.tracker.trackEvent(["event": "complete", "type": "content"])
        let pings = await meter.pings()
        #expect(errors.codes.isEmpty)
        #expect(pings.contains { $0["prd"] == "dtvr" && $0["asn"] == "channel1" })
    }

    /// A joint DCR and DTVR stream (the "DCR & DTVR" table: DCR content with `adModel`) on the
    /// guide's 13-digit playheads: DCR credits each second, live, without error 15.
    @Test func aJointStreamOnAMillisecondClockCreditsItsSeconds() async throws {
        let errors = ErrorCollector()
        let meter = MeterHarness(simplified: true, trackerDelegate: errors)
        let content = SimplifiedKeysTests.dcrSampleContent.merging(["adModel": "1", "length": "0"]) { $1 }
        let start = Int64(Self.simplifiedUnixPlayhead)!
        for second in 0...60 {
            meter.clock.advance(by: 1)
            meter.tracker.trackEvent(SimplifiedKeysTests.event(0, content: content)
                .merging(["playheadPosition": String(start + Int64(second) * 1_000)]) { $1 })
        }
        meter.tracker.trackEvent(["event": "complete", "type": "content"])
        let pings = await meter.pings()
        #expect(errors.codes.isEmpty)
        #expect(pings.filter { $0.assetID == "B66473" }.map(\.credited).reduce(0, +) == 60)
        let view = try #require(pings.first { $0.assetID == "B66473" })
        #expect(view["c58"] == "isLive,true")
    }
}
