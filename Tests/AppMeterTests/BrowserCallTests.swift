import BrowserCore
import Testing

/// How the browser engine reads a page's `ggPM` call: a playing page's `setPlayheadPosition`
/// every second takes a short path, which must answer exactly as the general reading does.
@Suite struct BrowserCallTests {
    /// Each row: the text appmeter.js passes, and the position read (nil: refused as an
    /// invalid playhead position).
    @Test(arguments: [
        ("setPlayheadPosition\np=12", 12),
        ("SETPLAYHEADPOSITION\np=12.7", 12),
        ("setplayheadposition\np=-3.5", -4),
        ("setPlayheadPosition\np=0.000", 0),
        ("setPlayheadPosition\np=%31%32", 12),          // percent-encoded: the general reading
        ("setPlayheadPosition\np=12&x=1", 12),           // another key: the general reading
        ("setPlayheadPosition\nx=1&p=7", 7),
        ("setPlayheadPosition\np=7&p=8", 7),             // the first wins
        ("setPlayheadPosition\nP=12", nil),              // keys are not case-folded
        ("setPlayheadPosition\np=1-2", nil),
        ("setPlayheadPosition\np=1..2", nil),
        ("setPlayheadPosition\np=", nil),
        ("setPlayheadPosition\np=-", nil),
        ("setPlayheadPosition\np=1e3", nil),
        ("setPlayheadPosition\np=1234567890123456", nil), // beyond 10^15 s
        ("setPlayheadPosition\np=123456789012345", 123_456_789_012_345),
    ] as [(String, Int64?)])
    func aPlayheadIsReadAsTheGeneralReadingReadsIt(text: String, expected: Int64?) {
        switch BrowserCall.parse(text) {
        case .success(let call):
            #expect(expected != nil, "\(text) read as \(call)")
            #expect(call == .setPlayheadPosition(expected))
        case .failure(let error):
            #expect(expected == nil, "\(text) refused: \(error.message)")
            #expect(error.code == .invalidPlayheadPosition)
        }
    }

    /// A page passes a whole number below 10¹⁵ as the number (`am_playhead`), whose text would be
    /// its digits: both read alike. Each row: the number, and its text as JavaScript's `String`
    /// writes it, which the general reading gets for any other number (refused ones alike).
    @Test(arguments: [
        (0, "0"), (-0.0, "0"), (1, "1"), (12, "12"), (3599, "3599"), (-3, "-3"), (1_800_000_100, "1800000100"),
        (999_999_999_999_999, "999999999999999"), (-999_999_999_999_999, "-999999999999999"),
        (12.7, "12.7"), (-3.5, "-3.5"),
        (1e15, "1000000000000000"), (-1e15, "-1000000000000000"), (1e21, "1e+21"),
        (.nan, "NaN"), (.infinity, "Infinity"), (-.infinity, "-Infinity"),
    ] as [(Double, String)])
    func aNumberIsReadAsItsTextWouldBe(seconds: Double, text: String) {
        let byNumber = BrowserCall.playhead(seconds: seconds)
        let byText = BrowserCall.parse("setPlayheadPosition\np=" + text)
        switch (byNumber, byText) {
        case (.success(let number), .success(let text)):
            #expect(number == text)
        case (.failure(let number), .failure(let text)):
            #expect(number.code == .invalidPlayheadPosition && text.code == .invalidPlayheadPosition)
        default:
            Issue.record("\(seconds): by number \(byNumber), by text \(byText)")
        }
    }

    @Test func otherCallsAreNotPlayheads() {
        #expect(BrowserCall.parse("setPlayheadPositionX\np=1") != .success(.setPlayheadPosition(1)))
        #expect(BrowserCall.parse("stop\np=5") == .success(.stop(5)))
        #expect(BrowserCall.parse("end\np=") == .success(.end(nil)))
    }

    /// Each row: a position as a page gives it, and the whole seconds it credits (nil: refused).
    @Test(arguments: [
        ("12", 12), ("12.9", 12), ("1.", 1), ("0", 0), ("-0.5", -1), ("-1.5", -2), ("-2.0", -2),
        ("999999999999999", 999_999_999_999_999), ("-999999999999999.1", -1_000_000_000_000_000),
        ("", nil), ("-", nil), (".5", nil), ("1.2.3", nil), ("12a", nil), ("1e3", nil), (" 1", nil),
        ("+1", nil), ("9999999999999999", nil),
    ] as [(String, Int64?)])
    func wholeSecondsRoundDown(raw: String, expected: Int64?) {
        #expect(BrowserCall.wholeSeconds(raw) == expected)
    }
}
