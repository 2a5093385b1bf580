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
    @Option(help: "Pings created at or after this Unix second.") var from: Int64?
    @Option(help: "Pings created before this Unix second.") var to: Int64?
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
        if let format, let export = ReportExport.Format(rawValue: format.rawValue) {
            try await printExport(export)
            return
        }
        let json = json || format == .json
        let query = ReportQuery(appid: appid, from: from, to: to, excludeFlagged: excludeFlagged)
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
    private func printExport(_ export: ReportExport.Format) async throws {
        let query = ReportQuery(appid: appid, from: from, to: to, excludeFlagged: excludeFlagged)
        let text = try await database.withExistingStore { store -> String in
            let cell: (String) -> String = { TerminalText.escaped($0) }
            return switch report ?? .credit {
            case .credit: ReportExport.render(try await store.reports.report(query), ReportExport.credit, as: export, text: cell)
            case .dtvr: ReportExport.render(try await store.reports.dtvrReport(query), ReportExport.dtvr, as: export, text: cell)
            case .viewability:
                ReportExport.render(try await store.viewability.viewabilityReport(query), ReportExport.viewability, as: export, text: cell)
            }
        }
        // JSON Lines keep JSON's escapes; a CSV's cells were escaped one by one.
        print(export == .jsonl ? TerminalText.escapedJSON(text) : text, terminator: "")
    }
}
