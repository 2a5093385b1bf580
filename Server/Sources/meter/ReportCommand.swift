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
    @Flag(help: "Print JSON instead of a table.") var json = false

    func run() async throws {
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
}
