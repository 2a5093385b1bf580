import ArgumentParser
import Census
import Foundation

struct ReportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report", abstract: "Print the credit report: views and credited seconds per app and asset.")

    @OptionGroup var database: DatabaseOptions
    @Option(help: "Only this appid.") var appid: String?
    @Option(help: "Pings created at or after this Unix second.") var from: Int64?
    @Option(help: "Pings created before this Unix second.") var to: Int64?
    @Flag(help: "Print JSON instead of a table.") var json = false

    func run() async throws {
        let rows = try await database.withStore { try await $0.report(ReportQuery(appid: appid, from: from, to: to)) }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            print(String(decoding: try encoder.encode(rows), as: UTF8.self))
        } else {
            print(ReportTable.render(rows))
        }
    }
}
