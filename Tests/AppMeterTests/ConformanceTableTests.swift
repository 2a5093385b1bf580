import Foundation
import Testing

/// docs/conformance.md cannot overclaim: every test it cites (`Suite`, `Suite.test`, `Suite.testPrefix…`)
/// exists in the repository's tests, and every row of its tables cites at least one test, a check script,
/// or an end-to-end row.
@Suite struct ConformanceTableTests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Every Swift file under the two packages' Tests folders, by path.
    static func testSources() throws -> [String: String] {
        var sources: [String: String] = [:]
        for folder in ["Tests", "Server/Tests"] {
            let base = root.appendingPathComponent(folder)
            for case let file as String in FileManager.default.enumerator(atPath: base.path) ?? .init()
            where file.hasSuffix(".swift") {
                sources[folder + "/" + file] = try String(contentsOf: base.appendingPathComponent(file), encoding: .utf8)
            }
        }
        return sources
    }

    /// The table rows of the document, without their first cell (the guide row itself).
    static func rows() throws -> [(row: String, cells: String)] {
        let text = try String(contentsOf: root.appendingPathComponent("docs/conformance.md"), encoding: .utf8)
        return text.split(separator: "\n").compactMap { line -> (String, String)? in
            guard line.hasPrefix("|"), !line.hasPrefix("|---") else { return nil }
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).dropFirst().dropLast()
            guard cells.count >= 3, !cells.contains(where: { $0.trimmingCharacters(in: .whitespaces) == "Covered by" })
            else { return nil }
            return (String(cells.first!.prefix(60)), cells.dropFirst().joined(separator: "|"))
        }
    }

    /// `Suite` or `Suite.test` (with `…`: a name's beginning) cited in backticks.
    static func citations(in cells: String) -> [(suite: String, test: String?, prefix: Bool)] {
        var found: [(String, String?, Bool)] = []
        for quoted in cells.split(separator: "`", omittingEmptySubsequences: false).enumerated() where quoted.offset % 2 == 1 {
            for word in quoted.element.split(whereSeparator: { $0 == " " || $0 == "," }) {
                var parts = word.split(separator: ".").map(String.init)
                if parts.first == "CensusTests" || parts.first == "GuideSampleTests" { parts.removeFirst() }
                if let folder = parts.first?.split(separator: "/").last { parts[0] = String(folder) }   // Simplified/…
                guard let suite = parts.first, suite.hasSuffix("Tests"), suite.first?.isUppercase == true,
                      parts.count <= 2 else { continue }
                var test = parts.count == 2 ? parts[1] : nil
                let prefix = test?.hasSuffix("…") ?? false
                if prefix { test?.removeLast() }
                found.append((suite, test, prefix))
            }
        }
        return found
    }

    static func declares(_ suite: String, in source: String) -> Bool {
        ["struct ", "class ", "enum ", "extension "].contains { source.contains($0 + suite + " ") || source.contains($0 + suite + ":") }
    }

    @Test func everyCitedTestExists() throws {
        let sources = try Self.testSources()
        var cited = 0
        var declaring: [String: [String: String]] = [:]
        for (row, cells) in try Self.rows() {
            for citation in Self.citations(in: cells) {
                cited += 1
                let files = declaring[citation.suite] ?? sources.filter { Self.declares(citation.suite, in: $0.value) }
                declaring[citation.suite] = files
                #expect(!files.isEmpty, "\(row): no suite \(citation.suite)")
                guard let test = citation.test, !files.isEmpty else { continue }
                let declared = files.values.contains {
                    $0.contains("func \(test)\(citation.prefix ? "" : "(")") || $0.contains("func \(test)<")
                }
                #expect(declared, "\(row): \(citation.suite) has no test \(test)\(citation.prefix ? "…" : "")")
            }
        }
        #expect(cited > 50, "the table's citations were not read (\(cited))")
    }

    @Test func everyRowCitesATest() throws {
        for (row, cells) in try Self.rows() {
            let cites = !Self.citations(in: cells).isEmpty || cells.contains("-check") || cells.contains("scripts/")
                || cells.contains("GuideFlowTests") || cells.contains("\"")
            #expect(cites, "\(row) cites no test")
        }
    }
}
