import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `meter serve`'s settings from flags, the environment and a config file, run as the binary
/// (docs/census.md, "Configuration"; census-decisions.md S37). A port something already listens on
/// shows which value was used without waiting for a census to start: serve fails naming it, exit 69.
@Suite struct MeterSettingsTests {
    /// Runs `meter serve` with a fresh database, `arguments` and `environment`, against an occupied port.
    static func serve(_ arguments: [String] = [], environment: [String: String] = [:],
                      _ check: (MeterRun, _ occupied: Int) throws -> Void) throws {
        let (occupied, descriptor) = try MeterRun.occupiedPort()
        defer { close(descriptor) }
        let database = ["--database", MeterRun.temporaryPath("census.sqlite")]
        let run = try MeterRun.run(["serve"] + database + arguments,
                                   environment: environment.mapValues { $0.replacingOccurrences(of: "$OCCUPIED", with: String(occupied)) },
                                   timeout: 30)
        try check(run, occupied)
    }

    /// A JSON config file holding `text`.
    static func configFile(_ text: String) throws -> String {
        let path = MeterRun.temporaryPath("meter.json")
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func anEnvironmentValueIsUsed() throws {
        try Self.serve(environment: ["METER_PORT": "$OCCUPIED"]) { run, occupied in
            #expect(run.status == 69, "\(run.errors)")
            #expect(run.errors.contains("cannot listen on 127.0.0.1 port \(occupied)"))
        }
    }

    @Test func aFlagWinsOverTheEnvironmentWhichIsNotEvenRead() throws {
        let (occupied, descriptor) = try MeterRun.occupiedPort()
        defer { close(descriptor) }
        try Self.serve(["--port", String(occupied)], environment: ["METER_PORT": "not a port"]) { run, _ in
            #expect(run.status == 69, "\(run.errors)")
            #expect(run.errors.contains("port \(occupied)"))
        }
    }

    @Test func aFileValueIsUsedAndTheEnvironmentWinsOverIt() throws {
        let (occupied, descriptor) = try MeterRun.occupiedPort()
        defer { close(descriptor) }
        let file = try Self.configFile(#"{"port": \#(occupied), "registered-apps-only": true, "header-timeout": 5}"#)
        try Self.serve(["--config", file]) { run, _ in
            #expect(run.status == 69, "\(run.errors)")
            #expect(run.errors.contains("port \(occupied)"))
        }
        let refused = try Self.configFile(#"{"port": 99999}"#)
        try Self.serve(["--config", refused], environment: ["METER_PORT": "$OCCUPIED"]) { run, port in
            #expect(run.status == 69, "\(run.errors)")
            #expect(run.errors.contains("port \(port)"))
        }
    }

    @Test(arguments: [
        (["METER_PORT": "99999"], "METER_PORT=99999 (environment) is not a port"),
        (["METER_PORT": "eighty"], "METER_PORT=eighty (environment) is not a whole number"),
        (["METER_HEADER_TIMEOUT": "0"], "METER_HEADER_TIMEOUT=0 (environment) must be 0.01…86400 seconds"),
        (["METER_ACCESS_LOG": "loud"], "METER_ACCESS_LOG=loud (environment) is not one of truncated, hashed, full, off"),
        (["METER_REGISTERED_APPS_ONLY": "maybe"], "METER_REGISTERED_APPS_ONLY=maybe (environment) is not true or false"),
        (["METER_TLS_CERT": "/tmp/chain.pem"], "--tls-cert and --tls-key go together: give both for HTTPS, or neither (only METER_TLS_CERT (environment) is set)"),
        (["METER_READ_DATABASE": "postgres://census:secret@replica/census"],
         "METER_READ_DATABASE (environment) reads a PostgreSQL replica, and --database is a SQLite file, which has none"),
        (["METER_READ_DATABASE": "replica.sqlite"],
         "METER_READ_DATABASE (environment) is not a PostgreSQL URL (postgres://…): it names a replica of a PostgreSQL --database"),
    ])
    func aBadEnvironmentValueIsRefusedByName(_ environment: [String: String], _ message: String) throws {
        try Self.serve(environment: environment) { run, _ in
            #expect(run.status == 64, "\(run.errors)")
            #expect(run.errors.contains(message), "\(run.errors)")
            #expect(!run.errors.contains("USAGE"))
        }
    }

    @Test(arguments: [(#"{"port": "eighty"}"#, #""port" in FILE is not a whole number"#),
                      (#"{"retention-days": 0}"#, #""retention-days": 0 in FILE must be 1…36500"#),
                      (#"{"prot": 8080}"#, #""prot" in FILE is not a setting of meter serve"#)])
    func aBadFileValueIsRefusedByKeyAndFile(_ text: String, _ message: String) throws {
        let file = try Self.configFile(text)
        try Self.serve(["--config", file]) { run, _ in
            #expect(run.status == 64, "\(run.errors)")
            #expect(run.errors.contains(message.replacingOccurrences(of: "FILE", with: file)), "\(run.errors)")
        }
    }

    @Test func aMissingConfigFileIsNamedWithItsOwnCode() throws {
        let path = MeterRun.temporaryPath("absent.json")
        try Self.serve(environment: ["METER_CONFIG": path]) { run, _ in
            #expect(run.status == 66, "\(run.errors)")
            #expect(run.errors.contains("cannot read the config file \(path)"))
        }
        let malformed = try Self.configFile("port: 8080")
        try Self.serve(["--config", malformed]) { run, _ in
            #expect(run.status == 65, "\(run.errors)")
            #expect(run.errors.contains("the config file \(malformed) is not a JSON object"))
        }
    }

    @Test func secretsAreNotRepeated() throws {
        let file = try Self.configFile(#"{"token": 12345}"#)
        try Self.serve(["--config", file]) { run, _ in
            #expect(run.status == 64, "\(run.errors)")
            #expect(run.errors.contains(#""token" in \#(file) is not a string"#), "\(run.errors)")
        }
    }
}
