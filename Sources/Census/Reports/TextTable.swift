/// Aligns rows of text into columns for the terminal: the one renderer behind `meter report` and
/// `meter demo`.
public enum TextTable {
    /// `rows[0]` is the header; columns in `rightAligned` (numbers) are padded on the left.
    /// With `rule`, a line of dashes follows the header.
    public static func render(_ rows: [[String]], rightAligned: Set<Int> = [], rule: Bool = false) -> String {
        guard let header = rows.first else { return "" }
        let widths = header.indices.map { column in rows.map { $0.indices.contains(column) ? $0[column].count : 0 }.max() ?? 0 }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { column, cell in
                let pad = String(repeating: " ", count: widths[column] - cell.count)
                return rightAligned.contains(column) ? pad + cell : cell + pad
            }.joined(separator: "  ")
        }
        var lines = [line(header)]
        if rule { lines.append(widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ")) }
        lines += rows.dropFirst().map(line)
        return lines.joined(separator: "\n")
    }
}
