import MeterContract

/// The reports as files other tools read (`meter report --format csv|jsonl`, `GET
/// /api/v1/report…?format=csv|jsonl`): one row per line, the columns of ``version`` in the order
/// ``columns`` lists them, named as the JSON API names its fields (docs/census.md §5,
/// census-decisions.md S50).
///
/// The columns are data, one table per report: a column is only ever added at the end, and a
/// change to what a column means or holds takes a new version.
package enum ReportExport {
    /// The version of the columns, sent as `AppMeter-Export-Version` by the API.
    package static let version = 1

    /// A file format.
    package enum Format: String, CaseIterable, Sendable {
        /// RFC 4180: a header line, then one line per row, `\r\n` after each.
        case csv
        /// JSON Lines: one JSON object per row, `\n` after each; no header.
        case jsonl

        /// The HTTP content type.
        package var contentType: String {
            switch self {
            case .csv: "text/csv; charset=utf-8; header=present"
            case .jsonl: "application/jsonl; charset=utf-8"
            }
        }
    }

    /// A cell: text, a whole number, a number, a flag, or nothing (an empty CSV cell, a JSON null).
    package enum Value: Equatable, Sendable {
        case text(String)
        case integer(Int64)
        case number(Double)
        case flag(Bool)
        case absent
    }

    /// A column: its name and how a row fills it.
    package struct Column<Row>: Sendable {
        package let name: String
        package let value: @Sendable (Row) -> Value

        package init(_ name: String, _ value: @escaping @Sendable (Row) -> Value) {
            self.name = name
            self.value = value
        }
    }

    /// The credit report's columns (`/api/v1/report`'s `rows`).
    package static let credit: [Column<CreditRow>] = [
        Column("appid") { .text($0.appid) },
        Column("assetid") { .text($0.assetid) },
        Column("kind") { .text($0.kind.rawValue) },
        Column("views") { .integer($0.views) },
        Column("creditedSeconds") { .integer($0.creditedSeconds) },
        Column("overBoundSeconds") { .integer($0.overBoundSeconds) },
        Column("ottSeconds") { .integer($0.ottSeconds) },
        Column("devices") { .integer($0.devices) },
        Column("sessions") { .integer($0.sessions) },
        Column("optedOutShare") { .number($0.optedOutShare) },
        Column("tagSeconds") { $0.tagCheck.map { .integer($0.tagSeconds) } ?? .absent },
        Column("sdkSeconds") { $0.tagCheck.map { .integer($0.sdkSeconds) } ?? .absent },
        Column("disagreeingSessions") { $0.tagCheck.map { .integer($0.disagreeingSessions) } ?? .absent },
    ]

    /// The DTVR report's columns (`/api/v1/report/dtvr`).
    package static let dtvr: [Column<DTVRRow>] = [
        Column("appid") { .text($0.appid) },
        Column("channel") { .text($0.channel) },
        Column("cid") { .text($0.cid) },
        Column("views") { .integer($0.views) },
        Column("creditedSeconds") { .integer($0.creditedSeconds) },
        Column("devices") { .integer($0.devices) },
        Column("sessions") { .integer($0.sessions) },
        Column("tagSeconds") { $0.tagCheck.map { .integer($0.tagSeconds) } ?? .absent },
        Column("sdkSeconds") { $0.tagCheck.map { .integer($0.sdkSeconds) } ?? .absent },
        Column("disagreeingSessions") { $0.tagCheck.map { .integer($0.disagreeingSessions) } ?? .absent },
    ]

    /// The viewability report's columns (`/api/v1/report/viewability`).
    package static let viewability: [Column<ViewabilityRow>] = [
        Column("appid") { .text($0.appid) },
        Column("session") { .text($0.session) },
        Column("assetid") { .text($0.assetid) },
        Column("pings") { .integer($0.pings) },
        Column("measuredSeconds") { .integer($0.measuredSeconds) },
        Column("viewableSeconds") { .integer($0.viewableSeconds) },
        Column("audibleSeconds") { .integer($0.audibleSeconds) },
        Column("overBoundSeconds") { .integer($0.overBoundSeconds) },
        Column("flagged") { .flag($0.flagged) },
    ]

    /// `columns` after a first, `period`: the period's label (`2026-11-26`, `2026-11-26T20:00+01:00`)
    /// of a report broken down by day or hour.
    package static func byPeriod<Row>(_ columns: [Column<Row>]) -> [Column<(String, Row)>] {
        [Column("period") { .text($0.0) }] + columns.map { column in Column(column.name) { column.value($0.1) } }
    }

    /// `rows` in `format`, with `columns`; each text cell of a CSV first through `text` (`meter`
    /// makes control characters visible there, as in its tables).
    package static func render<Row>(_ rows: [Row], _ columns: [Column<Row>], as format: Format,
                                    text transform: (String) -> String = { $0 }) -> String {
        var text = ""
        switch format {
        case .csv:
            text += columns.map(\.name).joined(separator: ",") + "\r\n"
            for row in rows {
                text += columns.map { column in
                    switch column.value(row) {
                    case .text(let cell): csvCell(.text(transform(cell)))
                    case let value: csvCell(value)
                    }
                }.joined(separator: ",") + "\r\n"
            }
        case .jsonl:
            for row in rows {
                text += "{" + columns.map { jsonString($0.name) + ":" + jsonValue($0.value(row)) }.joined(separator: ",") + "}\n"
            }
        }
        return text
    }

    /// A CSV cell: text quoted when it holds a comma, a quote or a line break, and a text that a
    /// spreadsheet would run as a formula (`=`, `+`, `-`, `@`, a tab or a carriage return first:
    /// an asset id is whatever a sender sent) led by `'`, as OWASP advises.
    static func csvCell(_ value: Value) -> String {
        switch value {
        case .text(var text):
            if let first = text.unicodeScalars.first, "=+-@\t\r".unicodeScalars.contains(first) { text = "'" + text }
            guard text.contains(where: { $0 == "," || $0 == "\"" || $0.isNewline }) else { return text }
            var quoted = "\""
            for character in text { quoted += character == "\"" ? "\"\"" : String(character) }
            return quoted + "\""
        case .integer(let number): return String(number)
        case .number(let number): return number.isFinite ? String(number) : ""
        case .flag(let flag): return flag ? "true" : "false"
        case .absent: return ""
        }
    }

    static func jsonValue(_ value: Value) -> String {
        switch value {
        case .text(let text): jsonString(text)
        case .integer(let number): String(number)
        case .number(let number): number.isFinite ? String(number) : "null"
        case .flag(let flag): flag ? "true" : "false"
        case .absent: "null"
        }
    }

    /// `text` as a JSON string: quotes, backslashes and control characters escaped.
    static func jsonString(_ text: String) -> String {
        var escaped = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": escaped += "\\\""
            case "\\": escaped += "\\\\"
            case "\n": escaped += "\\n"
            case "\r": escaped += "\\r"
            case "\t": escaped += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                let hex = String(scalar.value, radix: 16)
                escaped += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped + "\""
    }
}
