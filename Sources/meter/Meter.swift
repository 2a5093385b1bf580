import ArgumentParser
import Census
import Logging

@main
struct Meter: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "meter",
        abstract: "AppMeter's census: collect, store and credit measurement pings.",
        subcommands: [DemoCommand.self, ServeCommand.self, ReportCommand.self, CertifyCommand.self, AppsCommand.self, PlayCommand.self],
        defaultSubcommand: nil)
}

/// Options shared by the commands that open a census database.
struct DatabaseOptions: ParsableArguments {
    @Option(help: "A SQLite file path, or postgres://user:password@host:port/database.")
    var database = "./census.sqlite"

    var location: DatabaseLocation { DatabaseLocation(argument: database) }

    /// Opens and migrates the database, runs `body`, and closes it.
    func withStore<Result>(_ body: (PingStore) async throws -> Result) async throws -> Result {
        try await location.withStore(body)
    }
}

/// Sends logs to standard error at `level`.
func bootstrapLogging(_ level: Logger.Level) {
    LoggingSystem.bootstrap { label in
        var handler = StreamLogHandler.standardError(label: label)
        handler.logLevel = level
        return handler
    }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}
