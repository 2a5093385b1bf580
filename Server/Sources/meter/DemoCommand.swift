import ArgumentParser
import CensusHTTP
import CensusStore
import MeterTables
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
    @Flag(help: "Keep the census running afterwards, so the dashboard can be opened (Ctrl-C stops it).")
    var serve = false
    @Option(help: "The census's port (0: any free port).") var port = 0

    func validate() throws {
        try ListenAddress.validate(host: "127.0.0.1", port: port)
    }

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
        let census = try await RunningCensus.start(database: location, port: port)
        print("AppMeter demo: census on \(census.baseURL), storing in \(location)\n")
        let runner = DemoRunner(census: census)
        var outcomes: [DemoOutcome] = []
        var certified = true
        do {
            for scenario in DemoScenario.all {
                let outcome = try await runner.run(scenario)
                print("▶ \(scenario.name): \(outcome.sentSummary)")
                outcomes.append(outcome)
            }
            let rows = try await census.server.store.reports.report(ReportQuery(appid: runner.appID))
            print("\nCredit report for appid \(runner.appID)\n")
            print(ReportTable.render(rows))
            let dtvr = try await census.server.store.reports.dtvrReport(ReportQuery(appid: runner.appID))
            print("\nDTVR by channel and CID\n")
            print(ReportTable.render(dtvr))
            let viewability = try await census.server.store.viewability.viewabilityReport(ReportQuery(appid: runner.appID))
            print("\nViewability by session and asset (viewable: at least half the player on screen)\n")
            print(ReportTable.render(viewability))
            certified = try await certify(outcomes, census: census)
        } catch {
            await census.stop()
            throw error
        }
        print("\nDashboard: \(census.baseURL)/" + (serve ? " (Ctrl-C stops the census)" : " (run `meter demo --serve` to keep it open)"))
        print("Browser SDK demo player: \(census.baseURL)\(BrowserController.browserDemoRoute)")
        // Into a pipe too: whoever reads the URL must see it while the census runs (nil: every stream).
        fflush(nil)
        if serve {
            try await census.runUntilTerminated()
        } else {
            await census.stop()
        }
        if database == nil { try? FileManager.default.removeItem(at: folder) }

        print("\nExpected (crediting rule) against credited (census)\n")
        print(DemoSummary.render(outcomes))
        let seconds = Date.now.timeIntervalSince(started)
        let allMatch = outcomes.allSatisfy(\.matches)
        print(allMatch
            ? "\nEvery asset was credited exactly as played (\(String(format: "%.1f", seconds)) s)."
            : "\nMISMATCH: the census credited something other than what was played.")
        if !certified { print("CERTIFICATION: a correct scenario failed a rule, or the broken integration was not caught.") }
        if !allMatch || !certified { throw ExitCode.failure }
    }
}

extension DemoCommand {
    /// Certifies every scenario's traced session (each must pass every rule it exercises) and a
    /// deliberately broken integration (it must fail its rule); prints both.
    private func certify(_ outcomes: [DemoOutcome], census: RunningCensus) async throws -> Bool {
        let broken = BrokenIntegration()
        let brokenSession = try await broken.play(against: census)
        var named: [(name: String, report: CertificationReport)] = []
        for outcome in outcomes {
            guard let session = outcome.traceSession else { continue }
            named += try await census.server.sessions.certify(session: session, appid: nil).map { (outcome.scenario.name, $0) }
        }
        let correctPass = named.allSatisfy(\.report.passed)
        var caught = false
        if let brokenSession {
            let reports = try await census.server.sessions.certify(session: brokenSession, appid: nil)
            caught = reports.contains { report in
                report.results.contains { $0.id == BrokenIntegration.failingRule && $0.status == .fail }
            }
            named += reports.map { ("BROKEN on purpose: loadMetadata before every playhead", $0) }
            if let report = reports.first, let failed = report.results.first(where: { $0.status == .fail }) {
                print("\nThe broken integration fails \(failed.id): \(failed.explanation)\n  evidence: \(TerminalText.escaped(failed.evidence.first?.text ?? ""))")
            }
        }
        print("\nCertification of each session (meter certify --session <id>; rules in docs/certification.md)\n")
        print(CertificationTable.summary(named))
        return correctPass && caught
    }
}
