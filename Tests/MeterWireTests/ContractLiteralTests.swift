import Foundation
import MeterWire
import Testing

/// The call trace's vocabulary is written once (``TracedCall``, ``TracedArgument``): no Swift
/// source outside the contract names a trace argument by a string literal, on either side.
@Suite struct ContractLiteralTests {
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Sources")

    /// How a trace argument is read or written by name: `entry[argument: "…"]`, `args["…"]`.
    static let patterns = [#"\[argument: ""#, #"args\["[A-Za-z]"#]

    @Test func noSourceNamesATraceArgumentByALiteral() throws {
        var offenders: [String] = []
        var scanned = 0
        let files = FileManager.default.enumerator(at: Self.sources, includingPropertiesForKeys: nil)!
        for case let file as URL in files where file.pathExtension == "swift" && !file.path.contains("/MeterWire/Trace/") {
            let text = try String(contentsOf: file, encoding: .utf8)
            scanned += 1
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            where Self.patterns.contains(where: { line.range(of: $0, options: .regularExpression) != nil }) {
                offenders.append("\(file.lastPathComponent):\(number + 1): \(line.trimmingCharacters(in: .whitespaces))")
            }
        }
        #expect(scanned > 100, "found only \(scanned) sources under \(Self.sources.path)")
        #expect(offenders.isEmpty, "trace arguments by literal (use TracedArgument):\n\(offenders.joined(separator: "\n"))")
    }

    @Test func theArgumentNamesAreDistinct() {
        #expect(Set(TracedArgument.allCases.map(\.rawValue)).count == TracedArgument.allCases.count)
    }
}
