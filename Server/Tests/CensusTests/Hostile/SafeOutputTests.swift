@testable import CensusHTTP
@testable import CensusPostgres
@testable import CensusSQLite
@testable import CensusStore
@testable import MeterTables
import Foundation
import Testing
import MeterContract

/// What `meter report`, `meter certify` and `meter apps` print of stored values: nothing a
/// terminal acts on, every such character visible as an escape.
@Suite struct SafeOutputTests {
    @Test(arguments: [
        ("\u{1B}[2J", "\\u{1b}[2J"),
        ("bell\u{07}", "bell\\u{7}"),
        ("tab\tline\nreturn\r", "tab\\u{9}line\\u{a}return\\u{d}"),
        ("nul\u{0}", "nul\\u{0}"),
        ("del\u{7F}", "del\\u{7f}"),
        ("csi\u{9B}31m", "csi\\u{9b}31m"),
        ("osc\u{9D}", "osc\\u{9d}"),
        ("sep\u{2028}para\u{2029}", "sep\\u{2028}para\\u{2029}"),
        ("\u{202E}gnp.exe", "\\u{202e}gnp.exe"),
        ("isolate\u{2066}x\u{2069}", "isolate\\u{2066}x\\u{2069}"),
        ("été 東京 🎬 back\\slash", "été 東京 🎬 back\\slash"),
        ("", ""),
    ])
    func controlCharactersAreShownAsEscapes(_ stored: String, _ shown: String) {
        #expect(TerminalText.escaped(stored) == shown)
    }

    @Test func tableCellsAreEscapedAndStayAligned() {
        let table = TextTable.render([["appid", "asset"], ["\u{1B}[31mred", "a\nb"], ["x", "y", "an extra cell"]])
        #expect(!table.unicodeScalars.contains { $0 != "\n" && TerminalText.needsEscape($0) })
        let lines = table.split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines[1].hasPrefix("\\u{1b}[31mred  a\\u{a}b"))
    }

    @Test func reportTablesEscapeEveryStoredValue() {
        let row = CreditRow(appid: "P\u{1B}]0;x\u{7}", assetid: "\u{9B}2J", kind: .content, views: .max, creditedSeconds: .min,
                            ottSeconds: 0, devices: 0, sessions: 0, optedOutShare: .nan)
        let table = ReportTable.render([row])
        #expect(!table.unicodeScalars.contains { $0 != "\n" && TerminalText.needsEscape($0) })
        #expect(table.contains("P\\u{1b}]0;x\\u{7}"))
    }

    /// `meter report --json`: the same characters as JSON escapes, and the values unchanged.
    @Test func jsonOutputKeepsItsValues() throws {
        let values = ["\u{1B}[2J", "\u{9B}x\u{7F}", "\u{2028}\u{202E}", "plain é"]
        let json = String(decoding: try JSONEncoder().encode(values), as: UTF8.self)
        let escaped = TerminalText.escapedJSON(json)
        #expect(!escaped.unicodeScalars.contains { TerminalText.needsEscape($0) })
        #expect(try JSONDecoder().decode([String].self, from: Data(escaped.utf8)) == values)
        let pretty = JSONEncoder()
        pretty.outputFormatting = .prettyPrinted
        let lines = TerminalText.escapedJSON(String(decoding: try pretty.encode(values), as: UTF8.self))
        #expect(try JSONDecoder().decode([String].self, from: Data(lines.utf8)) == values)
    }
}
