import ArgumentParser
import Census
import Foundation
import Logging
import MeterDemo

struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Start an embedded census, play the documented call sequences through the SDK, and print what was credited.")

    @Option(help: "A SQLite file or postgres:// URL (default: a SQLite file in a temporary folder).")
    var database: String?
    @Option(help: "Log level for the census and SDK.") var logLevel = Logger.Level.warning

    func run() async throws {
        bootstrapLogging(logLevel)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("appmeter-demo-\(UUID().uuidString)")
        let location: DatabaseLocation
        if let database {
            location = DatabaseLocation(argument: database)
        } else {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            location = .sqlite(path: folder.appendingPathComponent("census.sqlite").path)
        }
        let started = Date.now
        let census = try await RunningCensus.start(database: location)
        print("AppMeter demo: census on \(census.baseURL), storing in \(location)\n")
        let runner = DemoRunner(census: census)
        var outcomes: [DemoOutcome] = []
        do {
            for scenario in DemoScenario.all {
                let outcome = try await runner.run(scenario)
                print("▶ \(scenario.name): \(outcome.sentSummary)")
                outcomes.append(outcome)
            }
            let rows = try await census.server.store.report(ReportQuery(appid: runner.appID))
            print("\nCredit report for appid \(runner.appID)\n")
            print(ReportTable.render(rows))
            let dtvr = try await census.server.store.dtvrReport(ReportQuery(appid: runner.appID))
            print("\nDTVR by channel and CID\n")
            print(ReportTable.render(dtvr))
            let viewability = try await census.server.store.viewabilityReport(ReportQuery(appid: runner.appID))
            print("\nViewability by session and asset (viewable: at least half the player on screen)\n")
            print(ReportTable.render(viewability))
        } catch {
            await census.stop()
            throw error
        }
        await census.stop()
        if database == nil { try? FileManager.default.removeItem(at: folder) }

        print("\nExpected (crediting rule) against credited (census)\n")
        print(DemoSummary.render(outcomes))
        let seconds = Date.now.timeIntervalSince(started)
        let allMatch = outcomes.allSatisfy(\.matches)
        print(allMatch
            ? "\nEvery asset was credited exactly as played (\(String(format: "%.1f", seconds)) s)."
            : "\nMISMATCH: the census credited something other than what was played.")
        if !allMatch { throw ExitCode.failure }
    }
}
