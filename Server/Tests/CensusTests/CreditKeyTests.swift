@testable import CensusHTTP
@testable import CensusPostgres
@testable import CensusSQLite
@testable import CensusStore
@testable import MeterTables
import Foundation
import MeterWire
import Testing

/// A credit fact is computed once (census-decisions.md S38): the report's SQL rows and
/// ``SessionCredit`` read their keys through ``CreditLine``, ``ChannelLine`` and ``TagGroup``,
/// and no source outside the credit rule builds a key of its own from strings.
@Suite struct CreditKeyTests {
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Sources")
    /// The credit rule's files: the only ones that name a key's columns.
    static let creditModule: Set<String> = ["CreditRule.swift", "CreditKeys.swift"]

    /// A key by hand: a dictionary or set keyed by `[String]`, an array literal as a subscript's
    /// key (`totals[[row.appid, row.assetid]]`), an array built of an element's fields in a
    /// closure (`.map { [$0.appid, $0.session] }`).
    static let patterns = [#"\[\[String\]\s*:"#, #"Set<\[String\]>"#, #"\[\[[A-Za-z_$][A-Za-z0-9_$]*\."#, #"\{\s*\[\$[0-9]+\."#]

    @Test func noSourceBuildsAKeyByHand() async throws {
        let (scanned, offenders) = try await offThePool { try Self.scan() }
        #expect(scanned > 100, "found only \(scanned) sources under \(Self.sources.path)")
        #expect(offenders.isEmpty, "keys built by hand (use CreditLine, ChannelLine, TagGroup):\n\(offenders.joined(separator: "\n"))")
    }

    /// The sources scanned, and the lines that build a key by hand.
    static func scan() throws -> (Int, [String]) {
        let expressions = try Self.patterns.map { try Regex($0) }
        var offenders: [String] = []
        var scanned = 0
        let files = (FileManager.default.enumerator(at: Self.sources, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? [])
            .filter { $0.pathExtension == "swift" && !Self.creditModule.contains($0.lastPathComponent) }
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            scanned += 1
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") && expressions.contains(where: { line.contains($0) }) {
                offenders.append("\(file.lastPathComponent):\(number + 1): \(line.trimmingCharacters(in: .whitespaces))")
            }
        }
        return (scanned, offenders)
    }

    /// A stored ping and the report's row of its columns read to the same keys.
    @Test func aPingAndItsRowReadTheSameKeys() throws {
        let values: [CreditColumn: String] = [.appid: "PA", .kind: CreditKind.dtvr.rawValue, .asset: "cid", .channel: "ch", .session: "s"]
        let ping = StoredPing(pingID: "p", appid: "PA", pingType: PingKind.tag.wireValue, kind: .dtvr, assetid: "cid", creditedSeconds: 0,
                              createdAt: 0, rawQuery: "", channel: "ch", session: "s", receivedAt: 0)
        let read: (CreditColumn) -> String = { values[$0] ?? "" }
        #expect(CreditLine(reading: ping.creditText) == CreditLine(reading: read))
        #expect(CreditLine(reading: read) == CreditLine(appid: "PA", kind: .dtvr, assetid: "cid"))
        #expect(TagGroup(reading: ping.creditText) == TagGroup(reading: read))
        #expect(TagGroup(reading: read).line == CreditLine(reading: read))
        #expect(TagGroup(reading: read).channelLine == ChannelLine(reading: read))
        #expect(CreditColumn.allCases.allSatisfy { ping.creditText($0) == values[$0] })
    }
}
