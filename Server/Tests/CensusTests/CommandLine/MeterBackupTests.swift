import CensusHTTP
import CensusStore
import MeterTables
import Foundation
import MeterDemo
import Testing

/// `meter backup` and the restore of docs/census.md ("Backup, restore and upgrade"), run as an
/// operator runs them.
extension MeterCommandLineTests {
    /// A backup taken while the census serves reports what the census reports; restored as the
    /// docs say (census stopped, the log files removed, the backup copied in place), it is what a
    /// census then starts on and reports, whatever was written after the backup.
    @Test func aBackupTakenWhileServingReportsTheSameAndRestores() async throws {
        try await Backend.sqlite.withFreshDatabase { location in
            guard case .sqlite(let path) = location else { return }
            let backup = MeterRun.temporaryPath("backup.sqlite")
            var census = try await RunningCensus.start(database: location)
            var backedUpReport = ""
            do {
                let runner = DemoRunner(census: census)
                for scenario in DemoScenario.all.dropLast() { _ = try await runner.run(scenario) }

                let run = try MeterRun.run(["backup", "--database", path, "--to", backup])
                #expect(run.status == 0, "\(run.errors)")
                #expect(run.output.hasPrefix("backed up \(path) to \(backup) ("), "\(run.output)")
                let original = try Self.jsonReport(path)
                backedUpReport = try Self.jsonReport(backup)
                #expect(backedUpReport == original)
                #expect(backedUpReport.contains(runner.appID) && backedUpReport.contains("\"creditedSeconds\""))

                // Written after the backup: in the database, not in the backup.
                _ = try await runner.run(try #require(DemoScenario.all.last))
            } catch {
                await census.stop()
                throw error
            }
            await census.stop()
            #expect(try Self.jsonReport(path) != backedUpReport)

            for stale in [path, path + "-wal", path + "-shm"] where FileManager.default.fileExists(atPath: stale) {
                try FileManager.default.removeItem(atPath: stale)
            }
            try FileManager.default.copyItem(atPath: backup, toPath: path)
            census = try await RunningCensus.start(database: location)
            await census.stop()
            #expect(try Self.jsonReport(path) == backedUpReport)
        }
    }

    /// A file at `--to` is never replaced, nor touched.
    @Test func aBackupNeverReplacesAFile() async throws {
        let path = try await Self.census(tracing: ["kept"])
        let existing = MeterRun.temporaryPath("backup.sqlite")
        try Data("not a backup".utf8).write(to: URL(fileURLWithPath: existing))
        let run = try MeterRun.run(["backup", "--database", path, "--to", existing])
        #expect(run.status == 73, "\(run.errors)")
        #expect(run.errors == "meter: \(existing) exists: a backup never replaces a file (name a new one)\n")
        #expect(try Data(contentsOf: URL(fileURLWithPath: existing)) == Data("not a backup".utf8))
        let folder = URL(fileURLWithPath: existing).deletingLastPathComponent().path
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["backup.sqlite"])
    }

    /// What cannot be backed up is named, with its own code, and leaves no file behind.
    @Test func whatCannotBeBackedUpIsNamed() async throws {
        let census = try await Self.census()
        let missing = MeterRun.temporaryPath("mistyped.sqlite")
        let notACensus = MeterRun.temporaryPath("notes.txt")
        try Data("some notes, not a database, long enough to have a header's worth of bytes in it.......".utf8)
            .write(to: URL(fileURLWithPath: notACensus))
        let cases: [(database: String, to: String, status: Int32, message: String)] = [
            (missing, MeterRun.temporaryPath("backup.sqlite"), 66, "no census database at \(missing)"),
            (notACensus, MeterRun.temporaryPath("backup.sqlite"), 65, "\(notACensus) is not a census database (not a SQLite database)"),
            (census, MeterRun.temporaryPath("no/such/folder/backup.sqlite"), 73, "cannot write the backup"),
        ]
        for (database, to, status, message) in cases {
            let run = try MeterRun.run(["backup", "--database", database, "--to", to])
            #expect(run.status == status, "\(database): \(run.errors)")
            #expect(run.errors.contains(message), "\(run.errors)")
            #expect(!run.errors.contains("Usage"))
            #expect(!FileManager.default.fileExists(atPath: to))
            #expect(try FileManager.default.contentsOfDirectory(
                atPath: URL(fileURLWithPath: database).deletingLastPathComponent().path).allSatisfy { !$0.hasSuffix(".incomplete") })
        }
        #expect(!FileManager.default.fileExists(atPath: missing))
    }

    /// The PostgreSQL steps of the docs, where a PostgreSQL and its `pg_dump` are at hand: a
    /// `pg_dump -Fc` taken while the census serves, `pg_restore`d into an empty database, reports
    /// what the census reports.
    @Test(.enabled(if: Backend.postgresURL != nil && MeterCommandLineTests.onPath("pg_dump") != nil
                        && MeterCommandLineTests.onPath("pg_restore") != nil))
    func aPostgreSQLDumpRestoredReportsTheSame() async throws {
        try await Backend.postgres.withFreshDatabase { source in
            try await Backend.postgres.withFreshDatabase { restored in
                guard case .postgres(let sourceURL) = source, case .postgres(let restoredURL) = restored else { return }
                let dump = MeterRun.temporaryPath("census.dump")
                let census = try await RunningCensus.start(database: source)
                do {
                    let runner = DemoRunner(census: census)
                    for scenario in DemoScenario.all { _ = try await runner.run(scenario) }
                    try Self.runTool("pg_dump", ["-Fc", "-d", sourceURL, "-f", dump])
                } catch {
                    await census.stop()
                    throw error
                }
                await census.stop()
                try Self.runTool("pg_restore", ["--no-owner", "-d", restoredURL, dump])
                let original = try Self.jsonReport(sourceURL)
                #expect(original.contains("\"creditedSeconds\""))
                #expect(try Self.jsonReport(restoredURL) == original)
            }
        }
    }

    /// The executable `name` on `PATH`.
    static func onPath(_ name: String) -> URL? {
        (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
            .map { URL(fileURLWithPath: String($0)).appendingPathComponent(name) }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    /// Runs `name` from `PATH` with `arguments`; throws unless it exits 0.
    static func runTool(_ name: String, _ arguments: [String]) throws {
        let tool = try #require(onPath(name))
        let process = Process()
        process.executableURL = tool
        process.arguments = arguments
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "\(name) \(arguments) exited \(process.terminationStatus)")
    }

    /// `meter report --json` of the database at `path`.
    static func jsonReport(_ path: String) throws -> String {
        let run = try MeterRun.run(["report", "--json", "--database", path])
        guard run.status == 0 else { throw MeterMissing() }
        return run.output
    }
}
