import CensusHTTP
import CensusStore
import MeterTables

/// Renders demo outcomes as a table of expected against credited seconds.
package enum DemoSummary {
    /// One line per asset of every scenario.
    package static func render(_ outcomes: [DemoOutcome]) -> String {
        var lines: [[String]] = [["scenario", "asset", "expected s", "census s", ""]]
        for (index, outcome) in outcomes.enumerated() {
            for asset in outcome.scenario.expected.keys.sorted() {
                let expected = outcome.scenario.expected[asset]!
                let credited = outcome.credited[asset] ?? 0
                lines.append(["\(index + 1)", asset, "\(expected)", "\(credited)", expected == credited ? "ok" : "MISMATCH"])
            }
        }
        return TextTable.render(lines, rightAligned: [2, 3])
    }
}
