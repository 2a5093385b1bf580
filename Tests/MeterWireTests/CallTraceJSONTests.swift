import Foundation
import MeterWire
import Testing

/// The call trace's JSON is written by hand in the Foundation-free contract (the SDKs' cores
/// record traces) and read by the census with `Codable`: the two must agree on every value.
@Suite struct CallTraceJSONTests {
    @Test func aBatchWithAwkwardTextReadsBackUnchanged() throws {
        let awkward = "quote \" backslash \\ tab \t newline \n nul \u{0} bell \u{7} é ✓ 🎧 </script>"
        let batch = CallTraceBatch(session: "s-1", appid: "P1", sdk: "aw.1.0.0", entries: [
            CallTraceEntry(seq: 0, time: 1_700_000_000.125, call: "init", args: ["nol_sdkDebug": "debug", awkward: awkward],
                           state: "idle"),
            CallTraceEntry(seq: 1, time: 1_700_000_001, call: "loadMetadata", args: [:], state: "processing",
                           events: [TracedEvent(code: 2, isEvent: false, text: awkward)],
                           pings: [TracedPing(id: "p-1", query: "prd=dcr&tl=a%20b")]),
        ])
        let read = try CallTraceBatch.decode(batch.body()).get()
        #expect(read == batch)
    }

    @Test(arguments: [(0.0, "0.000"), (1.5, "1.500"), (1_700_000_000.0125, "1700000000.013"), (.nan, "0"), (.infinity, "0"),
                      (1e13, "0")])
    func secondsAreWrittenToTheMillisecond(_ value: Double, _ text: String) throws {
        let batch = CallTraceBatch(session: "s", appid: "P", sdk: "x", entries: [
            CallTraceEntry(seq: 0, time: value, call: "init", state: "idle"),
        ])
        #expect(batch.jsonBody.contains("\"time\":\(text),"))
    }

    /// What the writer wrote reads back to itself (the census's fuzz target holds this on any body).
    @Test(arguments: [170_001.00005, 1_700_000_000.0004999, 3.999e12, 123_456_789.987_654])
    func aWrittenTimeReadsBackToItself(_ value: Double) throws {
        let once = try CallTraceBatch.decode(CallTraceBatch(session: "s", appid: "P", sdk: "x", entries: [
            CallTraceEntry(seq: 0, time: value, call: "init", state: "idle"),
        ]).body()).get()
        #expect(try CallTraceBatch.decode(once.body()).get() == once)
    }
}
