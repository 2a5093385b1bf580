import Foundation
import MeterWire
import Testing

/// The contract is written once: no Swift source outside it names a trace argument (``TracedCall``,
/// ``TracedArgument``) or a ping field (``PingField``) by a string literal, on either side.
@Suite struct ContractLiteralTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    /// Both sides: the SDK's package (`Sources`) and the census's (`Server/Sources`).
    static let sources = [root.appendingPathComponent("Sources"), root.appendingPathComponent("Server/Sources")]

    /// Every Swift file under ``sources``.
    static func swiftFiles() -> [URL] {
        sources.flatMap { folder in
            (FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? [])
                .filter { $0.pathExtension == "swift" }
        }
    }

    /// How a trace argument is read or written by name: `entry[argument: "…"]`, `args["…"]`.
    static let patterns = [#"\[argument: ""#, #"args\["[A-Za-z]"#]

    @Test func noSourceNamesATraceArgumentByALiteral() throws {
        var offenders: [String] = []
        var scanned = 0
        for file in Self.swiftFiles() where !file.path.contains("/MeterContract/Trace/") {
            let text = try String(contentsOf: file, encoding: .utf8)
            scanned += 1
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            where Self.patterns.contains(where: { line.range(of: $0, options: .regularExpression) != nil }) {
                offenders.append("\(file.lastPathComponent):\(number + 1): \(line.trimmingCharacters(in: .whitespaces))")
            }
        }
        #expect(scanned > 100, "found only \(scanned) sources under \(Self.sources.map(\.path))")
        #expect(offenders.isEmpty, "trace arguments by literal (use TracedArgument):\n\(offenders.joined(separator: "\n"))")
    }

    /// Literals spelled like a field name that mean something else.
    static let otherMeanings: Set<String> = [
        "DeliveryDiagnostics.swift \"recovered\"",   // a delivery counter
        "MeterInstance.swift \"ai\"",                // the platform prefix of `nol_sdkVersion`
        "SessionStore+SessionList.swift \"ai\"",     // the same prefix, read back as the session's platform
        "AppInfoNotices.swift \"uoo\"",             // the appInfo key of the simplified guide's sample (decisions A10)
    ]

    /// A ping field by name, alone or with a value: `"c27"`, `"c27=cln,"`.
    @Test func noSourceNamesAPingFieldByALiteral() throws {
        let names = PingField.allCases.map(\.name).joined(separator: "|")
        let literal = try Regex(#""(\#(names))(=[^"]*)?""#)
        var offenders: [String] = []
        for file in Self.swiftFiles() where !file.path.contains("/MeterContract/") {
            let text = try String(contentsOf: file, encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
                for match in line.matches(of: literal)
                where !Self.otherMeanings.contains("\(file.lastPathComponent) \(line[match.range])") {
                    offenders.append("\(file.lastPathComponent):\(number + 1): \(line[match.range])")
                }
            }
        }
        #expect(offenders.isEmpty, "ping fields by literal (use PingField):\n\(offenders.joined(separator: "\n"))")
    }

    /// A route by its path: `/cgi-bin/…`, `/nmapi/…` in code (comments may name them).
    @Test func noSourceSpellsARouteByALiteral() throws {
        let route = try Regex(#"(cgi-bin|nmapi)/"#)
        var offenders: [String] = []
        for file in Self.swiftFiles() where !file.path.contains("/MeterContract/") {
            let text = try String(contentsOf: file, encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") && line.contains(route) {
                offenders.append("\(file.lastPathComponent):\(number + 1): \(line.trimmingCharacters(in: .whitespaces))")
            }
        }
        #expect(offenders.isEmpty, "routes by literal (use WireRoute):\n\(offenders.joined(separator: "\n"))")
    }

    @Test func theArgumentNamesAreDistinct() {
        #expect(Set(TracedArgument.allCases.map(\.rawValue)).count == TracedArgument.allCases.count)
    }
}
