import AppMeter
public import ArgumentParser
import CensusHTTP
import CensusStore
import MeterTables
import Foundation
import Logging

@main
struct Meter: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "meter",
        abstract: "AppMeter's census: collect, store and credit measurement pings.",
        discussion: """
            Exit codes: 0 success; 1 a certification failed; 2 nothing to certify; 64 a wrong command \
            line; 65 malformed input; 66 a database or file that does not exist; 69 a database, port, \
            census or collector that is unavailable; 73 an output file that cannot be written.
            """,
        version: "meter \(MeterInstance.version)",
        subcommands: [DemoCommand.self, ServeCommand.self, ReportCommand.self, AudienceCommand.self, CertifyCommand.self, SessionsCommand.self,
                      AppsCommand.self, BackupCommand.self, PrivacyCommand.self, PlayCommand.self],
        defaultSubcommand: nil)

    /// Parses the command line (its mistakes print the usage and exit 64), then runs the command;
    /// what goes wrong while it runs is printed as one sentence with its own exit code
    /// (``MeterFailure``).
    static func main() async {
        let command: any ParsableCommand
        do {
            command = try parseAsRoot()
        } catch {
            exit(withError: error)
        }
        // `serve` and `demo` choose their level; the others log warnings only (the database
        // driver's retries are not the operator's business unless they fail).
        if !(command is ServeCommand || command is DemoCommand) { bootstrapLogging(.warning) }
        // `--help` and `help <command>` parse as the library's own help command, whose run throws
        // the help for `exit(withError:)` to print; only our commands' failures are MeterFailures.
        guard ours(type(of: command)) else {
            do {
                var command = command
                try command.run()
            } catch {
                exit(withError: error)
            }
            return
        }
        do {
            if var command = command as? any AsyncParsableCommand {
                try await command.run()
            } else {
                var command = command
                try command.run()
            }
        } catch {
            MeterFailure.exit(with: error)
        }
    }
}

extension Meter {
    /// Whether `command` is one of meter's commands, at any depth (`apps list`), rather than the
    /// library's help command.
    static func ours(_ command: any ParsableCommand.Type, in commands: [any ParsableCommand.Type] = configuration.subcommands) -> Bool {
        commands.contains { $0 == command || ours(command, in: $0.configuration.subcommands) }
    }
}

/// Options shared by the commands that open a census database.
struct DatabaseOptions: ParsableArguments {
    @Option(help: "A SQLite file path, or postgres://user:password@host:port/database.")
    var database = "./census.sqlite"

    var location: DatabaseLocation { DatabaseLocation(argument: database) }

    /// Opens and migrates the database, creating a SQLite file that does not exist yet (`serve`).
    func withStore<Result>(_ body: (PingStore) async throws -> Result) async throws -> Result {
        try await location.withStore(body)
    }

    /// Opens and migrates an existing database, for the commands that read one: a mistyped
    /// SQLite path is refused rather than answered from a new, empty database.
    func withExistingStore<Result>(_ body: (PingStore) async throws -> Result) async throws -> Result {
        if case .sqlite(let path) = location, !FileManager.default.fileExists(atPath: path) {
            throw MeterFailure(.noInput, "no census database at \(path) (`meter serve` and `meter demo --database` create one; --database names another)")
        }
        return try await location.withStore(body)
    }
}

/// Sends logs to standard error at `level`; the access log's lines at `info` whatever `level` is,
/// as `--access-log` alone turns them on or off.
func bootstrapLogging(_ level: Logger.Level, format: LogFormat = .text) {
    LoggingSystem.bootstrap { label in
        var handler = LogLineHandler(label: label, format: format.lineFormat)
        handler.logLevel = label == AccessLog.label ? .info : level
        return handler
    }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}
