import CensusStore

/// Aligns rows of text into columns for the terminal: the one renderer behind `meter report` and
/// `meter demo`.
public enum TextTable {
    /// `rows[0]` is the header; columns in `rightAligned` (numbers) are padded on the left.
    /// With `rule`, a line of dashes follows the header. Every cell is shown through
    /// ``TerminalText/escaped(_:)``: cells hold stored values, which senders chose.
    public static func render(_ rows: [[String]], rightAligned: Set<Int> = [], rule: Bool = false) -> String {
        guard !rows.isEmpty else { return "" }
        let rows = rows.map { $0.map(TerminalText.escaped) }
        let columns = rows.map(\.count).max() ?? 0
        let widths = (0..<columns).map { column in rows.map { $0.indices.contains(column) ? $0[column].count : 0 }.max() ?? 0 }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { column, cell in
                let pad = String(repeating: " ", count: widths[column] - cell.count)
                return rightAligned.contains(column) ? pad + cell : cell + pad
            }.joined(separator: "  ")
        }
        var lines = [line(rows[0])]
        if rule { lines.append(widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ")) }
        lines += rows.dropFirst().map(line)
        return lines.joined(separator: "\n")
    }
}
