import CensusHTTP
import CensusStore
import MeterTables
import Testing

/// Stored values reach a terminal with every control character made visible.
@Suite struct TerminalTextTests {
    @Test(arguments: [
        ("plain", "plain"),
        ("\u{1B}[2J\u{1B}]0;owned\u{07}", "\\u{1b}[2J\\u{1b}]0;owned\\u{7}"),
        ("a\tb\nc\rd", "a\\u{9}b\\u{a}c\\u{d}d"),
        ("del\u{7F} csi\u{9B} line\u{2028}para\u{2029}", "del\\u{7f} csi\\u{9b} line\\u{2028}para\\u{2029}"),
        ("écran ✓ \\u{1b}", "écran ✓ \\u{1b}"),
    ])
    func controlsAreEscaped(_ raw: String, _ shown: String) {
        #expect(TerminalText.escaped(raw) == shown)
        #expect(!TerminalText.escaped(raw).unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
    }
}
