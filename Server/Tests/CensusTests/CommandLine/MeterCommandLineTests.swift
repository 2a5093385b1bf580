import CensusHTTP
import CensusStore
import MeterTables
import Foundation
import MeterWire
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The operator's CLI, run as a binary (README, "Running the census"): what each surprise of the issue
/// "The census for the people who read it and run it" now does.
@Suite struct MeterCommandLineTests {
    static let appid = "P10000000-0000-4000-8000-0000000000A1"

    /// A SQLite census with one traced session per id, made in-process.
    static func census(tracing sessions: [String] = []) async throws -> String {
        let path = MeterRun.temporaryPath("census.sqlite")
        try await DatabaseLocation.sqlite(path: path).withStore { store in
            for session in sessions {
                var trace = TraceBuilder()
                trace.play()
                trace.content()
                try await store.traces.insert(CallTraceBatch(session: session, appid: appid, sdk: "test", entries: trace.entries),
                                       receivedAt: 1_700_000_000)
            }
        }
        return path
    }

    @Test(arguments: [["--help"], ["help"], ["serve", "--help"], ["help", "report"]])
    func helpIsPrinted(_ arguments: [String]) throws {
        let run = try MeterRun.run(arguments)
        #expect(run.status == 0)
        #expect(run.output.contains("USAGE: meter"), "\(run.output)")
    }

    @Test func versionIsPrinted() throws {
        let run = try MeterRun.run(["--version"])
        #expect(run.status == 0)
        #expect(run.output.hasPrefix("meter "))
    }

    /// A mistyped database path is refused, not answered from a new empty database.
    @Test(arguments: [["report"], ["certify", "--appid", appid], ["apps", "list"], ["apps", "show", appid],
                      ["apps", "set", appid, "--interval", "30"], ["sessions"]])
    func commandsThatReadADatabaseRefuseAMissingFile(_ command: [String]) throws {
        let path = MeterRun.temporaryPath("mistyped.sqlite")
        let run = try MeterRun.run(command + ["--database", path])
        #expect(run.status == 66, "\(command): \(run.errors)")
        #expect(run.errors.contains("no census database at \(path)"))
        #expect(!run.errors.contains("Usage:"))
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test(arguments: [(["serve", "--port", "99999"], "--port 99999 is not a port"),
                      (["serve", "--port=-1"], "--port -1 is not a port"),
                      (["demo", "--port", "70000"], "--port 70000 is not a port"),
                      (["apps", "set", "bogus", "--interval", "30"], "bogus is not an appid"),
                      (["apps", "set", appid], "nothing to change"),
                      (["play", "--collector", "ftp://x", "--storage", "/tmp/x"], "is not an http(s) URL"),
                      (["serve", "--tls-cert", "/tmp/census.crt"], "--tls-cert and --tls-key go together"),
                      (["backup", "--database", "postgres://census@127.0.0.1/census", "--to", "/tmp/census.dump"],
                       "back up PostgreSQL with pg_dump -Fc")])
    func mistakesInTheCommandLineAreUsageErrors(_ command: [String], _ message: String) throws {
        let run = try MeterRun.run(command)
        #expect(run.status == 64, "\(command): \(run.errors)")
        #expect(run.errors.contains(message))
    }

    /// `report --format csv|jsonl` prints one report's rows with the documented columns, a
    /// sender's control characters made visible (census-decisions.md S50).
    @Test func reportExportsOneReportAsCSVOrJSONLines() async throws {
        let path = MeterRun.temporaryPath("census.sqlite")
        try await DatabaseLocation.sqlite(path: path).withStore { store in
            var ping = SessionSpanTests.ping("p1", "s1", at: 1_700_000_000, appid: Self.appid)
            ping.assetID = "news\u{1b}[31m"
            _ = try await store.insert([ping], receivedAt: 1_700_000_000_000)
        }
        let csv = try MeterRun.run(["report", "--database", path, "--format", "csv"])
        #expect(csv.status == 0, "\(csv.errors)")
        #expect(csv.output.hasPrefix("appid,assetid,kind,views,creditedSeconds,"))
        #expect(csv.output.contains("\(Self.appid),news\\u{1b}[31m,content,0,10,"), "\(csv.output)")
        #expect(!csv.output.contains("\u{1b}"))
        let jsonl = try MeterRun.run(["report", "--database", path, "--format", "jsonl", "--report", "viewability"])
        #expect(jsonl.status == 0 && jsonl.output.isEmpty, "\(jsonl.errors)")
        let credit = try MeterRun.run(["report", "--database", path, "--format", "jsonl"])
        #expect(credit.output.contains(#""assetid":"news\u001b[31m""#), "\(credit.output)")
        let refused = try MeterRun.run(["report", "--database", path, "--report", "dtvr"])
        #expect(refused.status == 64 && refused.errors.contains("--report picks the report of --format csv or jsonl"))
        let unbounded = try MeterRun.run(["report", "--database", path, "--by", "hour"])
        #expect(unbounded.status == 64 && unbounded.errors.contains("--by=hour needs --from and --to"), "\(unbounded.errors)")
    }

    /// `meter audience` prints the measures and the curve in the zone asked, the API's JSON with
    /// `--json`, and names what it cannot read.
    @Test func audiencePrintsTheMeasuresAndTheCurve() async throws {
        let path = MeterRun.temporaryPath("census.sqlite")
        try await DatabaseLocation.sqlite(path: path).withStore { store in
            var first = SessionSpanTests.ping("p1", "s1", at: 1_700_000_040, appid: Self.appid)
            first.creditedSeconds = 40
            var second = SessionSpanTests.ping("p2", "s1", at: 1_700_000_100, appid: Self.appid)
            second.creditedSeconds = 60
            _ = try await store.insert([first, second], receivedAt: 1_700_000_100_000)
        }
        let range = ["--database", path, "--appid", Self.appid, "--from", "1700000000", "--to", "1700000600"]
        let table = try MeterRun.run(["audience"] + range + ["--tz", "+01:00"])
        #expect(table.status == 0, "\(table.errors)")
        #expect(table.output.contains("reach") && table.output.contains("1.7"), "\(table.output)")
        // 1_700_000_000 is 2023-11-14T22:13:20Z: the first ping credits 22:13:20–22:14:00, the second 22:14–22:15.
        #expect(table.output.contains("2023-11-14T23:13:00+01:00        1       40\n2023-11-14T23:14:00+01:00        1       60"),
                "\(table.output)")
        let json = try MeterRun.run(["audience"] + range + ["--json"])
        #expect(json.output.contains(#""creditedSeconds" : 100"#), "\(json.output)")
        let refused = try MeterRun.run(["audience", "--database", path, "--appid", Self.appid, "--from", "1700000000"])
        #expect(refused.status == 64 && refused.errors.contains("--from and --to are required"), "\(refused.errors)")
    }

    /// `apps set` changes only what is given; `apps list` shows what is set.
    @Test func appsSetChangesOnlyWhatIsGiven() async throws {
        let path = try await Self.census()
        #expect(try MeterRun.run(["apps", "set", Self.appid, "--disable-measurement", "--database", path]).status == 0)
        let set = try MeterRun.run(["apps", "set", Self.appid, "--interval", "30", "--database", path])
        #expect(set.output.contains("DISABLED, duration ping every 30 s"), "\(set.errors)")
        #expect(try MeterRun.run(["apps", "show", Self.appid, "--database", path]).output
                == "\(Self.appid): DISABLED, duration ping every 30 s\n")
        let list = try MeterRun.run(["apps", "list", "--database", path])
        #expect(list.status == 0)
        #expect(list.output.contains(Self.appid) && list.output.contains("DISABLED") && list.output.contains("30 s"))
        // The market (decisions.md B11a): set, kept by the other settings' changes, removed with "".
        #expect(try MeterRun.run(["apps", "set", Self.appid, "--sfcode", "it", "--database", path]).output
                == "\(Self.appid): DISABLED, duration ping every 30 s, market it\n")
        #expect(try MeterRun.run(["apps", "set", Self.appid, "--enable-measurement", "--database", path]).output
                == "\(Self.appid): enabled, duration ping every 30 s, market it\n")
        let listed = try MeterRun.run(["apps", "list", "--database", path]).output
        #expect(listed.contains("market") && listed.contains(" it"), "\(listed)")
        #expect(try MeterRun.run(["apps", "set", Self.appid, "--sfcode", "", "--database", path]).output
                == "\(Self.appid): enabled, duration ping every 30 s\n")
        let bad = try MeterRun.run(["apps", "set", Self.appid, "--sfcode", "Italy!", "--database", path])
        #expect(bad.status == 64 && bad.errors.contains("--sfcode must be"), "\(bad.errors)")
    }

    /// `meter sessions` lists the ids `certify --session` takes, and a unique beginning is enough.
    @Test func sessionsListsWhatCertifyTakesAndPrefixesResolve() async throws {
        let path = try await Self.census(tracing: ["a1b2c3d4-first", "a1ffffff-second"])
        let sessions = try MeterRun.run(["sessions", "--database", path])
        #expect(sessions.status == 0)
        #expect(sessions.output.contains("a1b2c3d4-first") && sessions.output.contains("a1ffffff-second"))
        let certified = try MeterRun.run(["certify", "--session", "a1b2", "--database", path])
        #expect([0, 1].contains(certified.status), "\(certified.errors)")
        #expect(certified.output.contains("a1b2c3d4-first"))
        let ambiguous = try MeterRun.run(["certify", "--session", "a1", "--database", path])
        #expect(ambiguous.status == 64)
        #expect(ambiguous.errors.contains("--session a1 begins 2 sessions"))
        #expect(try MeterRun.run(["certify", "--session", "zz", "--database", path]).status == 2)
    }

    @Test func aMalformedDatabaseURLIsAUsageError() throws {
        let run = try MeterRun.run(["report", "--database", "postgres://"])
        #expect(run.status == 64, "\(run.errors)")
        #expect(run.errors.contains("cannot read database URL"))
    }

    @Test func serveLogsOneJSONObjectALineWhenAsked() throws {
        let run = try MeterRun.run(["serve", "--port", "0", "--database", MeterRun.temporaryPath("census.sqlite"),
                                    "--log-format", "json"], timeout: 5)
        let lines = run.errors.split(separator: "\n").filter { !$0.isEmpty }
        #expect(lines.count >= 2, "\(run.errors)")
        for line in lines {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            #expect(object?["level"] != nil && object?["message"] != nil && object?["time"] != nil, "\(line)")
        }
        #expect(lines.contains { $0.contains("census storing in") })
    }

    @Test func anUnreadableCertificateIsNamedWithItsOwnCode() throws {
        let run = try MeterRun.run(["serve", "--port", "0", "--database", MeterRun.temporaryPath("census.sqlite"),
                                    "--tls-cert", "/nonexistent/chain.pem", "--tls-key", "/nonexistent/key.pem"])
        #expect(run.status == 66, "\(run.errors)")
        #expect(run.errors.contains("cannot read a PEM certificate from /nonexistent/chain.pem"))
        #expect(!run.errors.contains("Usage"))
    }

    @Test func anExportIntoAMissingFolderCannotBeCreated() async throws {
        let path = try await Self.census(tracing: ["export-me"])
        let run = try MeterRun.run(["certify", "--session", "export-me", "--database", path,
                                    "--export", MeterRun.temporaryPath("no/such/folder/report.json")])
        #expect(run.status == 73, "\(run.errors)")
    }

    @Test func aPortInUseIsNamed() async throws {
        let (port, descriptor) = try MeterRun.occupiedPort()
        defer { close(descriptor) }
        let run = try MeterRun.run(["serve", "--port", String(port), "--database", MeterRun.temporaryPath("c.sqlite")], timeout: 30)
        #expect(run.status == 69, "\(run.errors)")
        #expect(run.errors.contains("cannot listen on 127.0.0.1 port \(port)"))
    }

    @Test func aCollectorThatDoesNotAnswerIsSaidAtOnce() throws {
        let (port, descriptor) = try MeterRun.occupiedPort()
        close(descriptor)   // nothing listens there now
        let run = try MeterRun.run(["play", "--collector", "http://127.0.0.1:\(port)", "--storage", MeterRun.temporaryPath("sdk")],
                                   timeout: 20)
        #expect(run.status == 69, "\(run.errors)")
        #expect(run.errors.contains("the collector at http://127.0.0.1:\(port) does not answer"))
    }

    /// An unreachable PostgreSQL is tried a few times and named, not waited for forever.
    @Test func anUnreachablePostgreSQLIsNamed() throws {
        let (port, descriptor) = try MeterRun.occupiedPort()
        close(descriptor)
        let run = try MeterRun.run(["report", "--database", "postgres://census:secret@127.0.0.1:\(port)/census"], timeout: 60)
        #expect(run.status == 69, "\(run.errors)")
        #expect(run.errors.contains("the database postgres://census:***@127.0.0.1:\(port)/census did not answer (3 attempts)"))
        #expect(!run.errors.contains("secret"))
    }
}
