import ArgumentParser
import Census
import Foundation
import Logging

struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the census: receive pings and traces, answer config, reports, certification and the dashboard.")

    @Option(help: "The address to listen on: an IPv4 or IPv6 address (0.0.0.0: every interface), or a name.") var host = "127.0.0.1"
    @Option(help: "The port to listen on (1…65535; 0: any free port).") var port = 8080
    @OptionGroup var database: DatabaseOptions
    @OptionGroup(title: "What the census takes and keeps") var policy: PolicyOptions
    @OptionGroup(title: "Connections") var connections: ConnectionOptions
    @Option(help: "The token the dashboard and read API require (also APPMETER_CENSUS_TOKEN). Beyond loopback one is always required: without this option a random one is made and logged.")
    var token: String?
    @Option(help: "Log level: trace, debug, info, notice, warning, error, critical.") var logLevel = Logger.Level.info
    @Option(help: "Log format: text (for a person) or json (one object a line, for a log collector).") var logFormat = LogFormat.text
    @Option(help: ArgumentHelp("Answer HTTPS with this PEM certificate chain, leaf first (with --tls-key).", valueName: "file"))
    var tlsCert: String?
    @Option(help: ArgumentHelp("The certificate's PEM private key (with --tls-cert).", valueName: "file"))
    var tlsKey: String?

    func validate() throws {
        try ListenAddress.validate(host: host, port: port)
        guard (tlsCert == nil) == (tlsKey == nil) else {
            throw ValidationError("--tls-cert and --tls-key go together: give both for HTTPS, or neither")
        }
    }

    func run() async throws {
        bootstrapLogging(logLevel, format: logFormat)
        let logger = Logger(label: "Census")
        let access = Self.access(host: host, token: token ?? ProcessInfo.processInfo.environment["APPMETER_CENSUS_TOKEN"],
                                 logger: logger)
        let limits = connections.limits
        var tls: CensusTLS?
        if let tlsCert, let tlsKey {
            do { tls = try CensusTLS(certificateFile: tlsCert, keyFile: tlsKey) } catch {
                throw MeterFailure(.noInput, "\(error)")
            }
        }
        let census: RunningCensus
        do {
            census = try await RunningCensus.start(database: database.location, host: host, port: port, tls: tls, access: access,
                                                   policy: policy.policy, connectionLimits: limits, logger: logger)
        } catch {
            // The set-up's own failures say what failed; anything else (a port, a migration) is told where.
            if case CensusError.badDatabaseURL = error { throw error }
            if case CensusError.databaseUnreachable = error { throw error }
            if case CensusError.schemaNewer = error { throw error }
            if case CensusError.tlsUnusable = error { throw MeterFailure(.noInput, "\(error)") }
            throw MeterFailure(.unavailable, "cannot listen on \(host) port \(port), or open \(database.location): \(error)")
        }
        let url = ListenAddress.browserURL(host: host, port: census.port, https: tls != nil)
        logger.info("census storing in \(database.location), listening on \(host) port \(census.port); dashboard at \(url), browser SDK demo player at \(url)\(CensusServer.browserDemoRoute.dropFirst())")
        logger.info("at most \(limits.maxConnections) connections (open-file limit \(ConnectionLimits.openFileLimit)); a head within \(limits.headerTimeout), a body within \(limits.bodyTimeout), idle \(limits.idleTimeout)")
        try await census.runUntilTerminated()
    }

    /// The read access for a census on `host`: open on loopback unless a token is given; beyond
    /// loopback always a token (a random one, logged, when none is given).
    static func access(host: String, token: String?, logger: Logger) -> CensusAccess {
        if let token, !token.isEmpty { return CensusAccess(token: token) }
        guard !CensusAccess.isLoopback(host) else { return .open }
        var generator = SystemRandomNumberGenerator()
        let made = (0..<4).map { _ in String(format: "%016llx", generator.next() as UInt64) }.joined()
        logger.notice("listening beyond loopback: the dashboard and read API need this token (set --token or APPMETER_CENSUS_TOKEN to choose one): \(made)")
        return CensusAccess(token: made)
    }
}
