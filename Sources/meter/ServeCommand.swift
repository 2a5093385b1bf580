import ArgumentParser
import Census
import Hummingbird
import Logging

struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve", abstract: "Run the census: receive pings, answer config and report requests.")

    @Option(help: "The address to listen on.") var host = "127.0.0.1"
    @Option(help: "The port to listen on.") var port = 8080
    @OptionGroup var database: DatabaseOptions
    @Option(help: "Log level: trace, debug, info, notice, warning, error, critical.") var logLevel = Logger.Level.info

    func run() async throws {
        bootstrapLogging(logLevel)
        let logger = Logger(label: "Census")
        let db = try await database.location.open(logger: logger)
        let store = PingStore(database: db)
        try await store.migrate()
        logger.info("census storing in \(database.location)")
        let server = CensusServer(store: store, logger: logger)
        let application = server.application(host: host, port: port) { port in
            logger.info("census listening on http://\(host):\(port)")
        }
        do {
            try await application.runService()
        } catch {
            await db.close()
            throw error
        }
        await db.close()
    }
}
