import ArgumentParser
import CensusHTTP
import CensusStore
import MeterTables
import Foundation

/// The JSON form: the credit rows, the DTVR rows and the viewability rows.
private struct Report: Encodable {
    let rows: [CreditRow]
    let dtvr: [DTVRRow]
    let viewability: [ViewabilityRow]
    let plausibility: [PlausibilityRow]
}

struct ReportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report", abstract: "Print the credit report: views and credited seconds per app and asset.")

    @OptionGroup var database: DatabaseOptions
    @Option(help: "Only this appid.") var appid: String?
    @Option(help: "Pings created at or after this: Unix seconds, a date (2026-11-26: its start) or a date and time (2026-11-26T20:00:00+01:00).")
    var from: String?
    @Option(help: "Pings created before this: Unix seconds, a date (2026-11-26: the end of that day) or a date and time.")
    var to: String?
    @Option(help: "The zone dates, times without an offset and --by's days are read in: UTC, a zone name (Europe/Rome) or an offset (+01:00) (default: UTC).")
    var tz: String?
    @Option(help: "Break the report down by day or hour of --tz (needs --from and --to).") var by: String?
    @Flag(help: "Leave out the sessions the session rule flags (docs/census.md §4b).") var excludeFlagged = false
    @Flag(help: "Print JSON instead of a table (as --format json).") var json = false
    @Option(help: "table, json, csv or jsonl: csv and jsonl print one report's rows with the columns docs/census.md §5 lists (default: table).")
    var format: ReportFormat?
    @Option(help: "With --format csv or jsonl, which report: credit, dtvr or viewability (default: credit).")
    var report: ExportedReport?

    /// How the report is printed.
    enum ReportFormat: String, ExpressibleByArgument, CaseIterable { case table, json, csv, jsonl }
    /// The report a CSV or JSON Lines export holds.
    enum ExportedReport: String, ExpressibleByArgument, CaseIterable { case credit, dtvr, viewability }

    func validate() throws {
        if json, let format, format != .json { throw ValidationError("--json and --format \(format.rawValue) disagree: give one") }
        if report != nil, ![.csv, .jsonl].contains(format) {
            throw ValidationError("--report picks the report of --format csv or jsonl; a table or JSON holds every report")
        }
    }

    func run() async throws {
        let range: ReportRange
        switch ReportRange.read(from: from, to: to, tz: tz, by: by, named: { "--" + $0 }) {
        case .success(let read): range = read
        case .failure(let problem): throw MeterFailure(.usage, problem.reason)
        }
        let query = range.applied(to: ReportQuery(appid: appid, excludeFlagged: excludeFlagged))
        if let format, let export = ReportExport.Format(rawValue: format.rawValue) {
            try await printExport(export, query, range)
            return
        }
        if let (unit, periods) = range.breakdown {
            try await printBreakdown(unit, periods, query, zone: range.zone)
            return
        }
        let json = json || format == .json
        let (rows, dtvr, viewability, plausibility) = try await database.withExistingStore { store in
            (try await store.reports.report(query), try await store.reports.dtvrReport(query), try await store.viewability.viewabilityReport(query),
             try await store.reports.plausibility(query))
        }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            let report = try encoder.encode(Report(rows: rows, dtvr: dtvr, viewability: viewability, plausibility: plausibility))
            print(TerminalText.escapedJSON(String(decoding: report, as: UTF8.self)))
        } else {
            print(ReportTable.render(rows))
            if !dtvr.isEmpty { print("\nDTVR by channel and CID\n" + ReportTable.render(dtvr)) }
            if !viewability.isEmpty { print("\nViewability by session and asset\n" + ReportTable.render(viewability)) }
            if plausibility.contains(where: \.holdsAnything) {
                print("\nNot taken at face value (docs/census.md §4b)\n" + ReportTable.render(plausibility)
                      + (excludeFlagged ? "\nflagged sessions left out of the credit above" : "\nflagged sessions are credited above; --exclude-flagged leaves them out"))
            }
        }
    }

    /// One report's rows in `export` (census-decisions.md S50), escaped for the terminal as
    /// everything `meter` prints of stored values.
    private func printExport(_ export: ReportExport.Format, _ query: ReportQuery, _ range: ReportRange) async throws {
        let periods = range.breakdown?.periods
        let text = try await database.withExistingStore { store -> String in
            switch report ?? .credit {
            case .credit: try await Self.export(ReportExport.credit, query, periods, as: export) { try await store.reports.report($0) }
            case .dtvr: try await Self.export(ReportExport.dtvr, query, periods, as: export) { try await store.reports.dtvrReport($0) }
            case .viewability:
                try await Self.export(ReportExport.viewability, query, periods, as: export) { try await store.viewability.viewabilityReport($0) }
            }
        }
        // JSON Lines keep JSON's escapes; a CSV's cells were escaped one by one.
        print(export == .jsonl ? TerminalText.escapedJSON(text) : text, terminator: "")
    }

    /// One report in `format`, over `query`'s range or per period (`period` first), text cells
    /// made visible for the terminal.
    private static func export<Row>(_ columns: [ReportExport.Column<Row>], _ query: ReportQuery, _ periods: [ReportTime.Period]?,
                                    as format: ReportExport.Format, rows: (ReportQuery) async throws -> [Row]) async throws -> String {
        let cell: (String) -> String = { TerminalText.escaped($0) }
        guard let periods else { return ReportExport.render(try await rows(query), columns, as: format, text: cell) }
        var labelled: [(String, Row)] = []
        for period in periods {
            var part = query
            part.from = period.start
            part.to = period.end
            labelled += try await rows(part).map { (period.label, $0) }
        }
        return ReportExport.render(labelled, ReportExport.byPeriod(columns), as: format, text: cell)
    }

    /// The credit and DTVR reports of each period of a breakdown, as tables or JSON.
    private func printBreakdown(_ unit: ReportTime.Unit, _ periods: [ReportTime.Period], _ query: ReportQuery,
                                zone: TimeZone) async throws {
        let reports = try await database.withExistingStore { store -> [PeriodReport] in
            var reports: [PeriodReport] = []
            for period in periods {
                var part = query
                part.from = period.start
                part.to = period.end
                reports.append(PeriodReport(label: period.label, start: period.start, end: period.end,
                                            rows: try await store.reports.report(part), dtvr: try await store.reports.dtvrReport(part)))
            }
            return reports
        }
        if json || format == .json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            let text = try encoder.encode(Breakdown(by: unit.rawValue, timeZone: zone.identifier, periods: reports))
            print(TerminalText.escapedJSON(String(decoding: text, as: UTF8.self)))
            return
        }
        for report in reports {
            guard !report.rows.isEmpty else {
                print("\n\(report.label): no pings")
                continue
            }
            print("\n\(report.label)\n" + ReportTable.render(report.rows))
            if !report.dtvr.isEmpty { print("DTVR by channel and CID\n" + ReportTable.render(report.dtvr)) }
        }
    }
}

/// One period of `meter report --by`.
private struct PeriodReport: Encodable, Sendable {
    let label: String
    let start: Int64
    let end: Int64
    let rows: [CreditRow]
    let dtvr: [DTVRRow]
}

/// `meter report --by … --json`.
private struct Breakdown: Encodable {
    let by: String
    let timeZone: String
    let periods: [PeriodReport]
}
