import ArgumentParser
import CensusHTTP
import CensusStore
import MeterTables
import Foundation
import Logging

struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the census: receive pings and traces, answer config, reports, certification and the dashboard.",
        discussion: """
            Every option can also be set by an environment variable, METER_ and its name in capitals with \
            dashes as underscores (METER_PORT, METER_TLS_CERT), or by a key of the JSON file --config names \
            (also METER_CONFIG), the option's name ({"port": 8080, "registered-apps-only": true}). A flag \
            wins over the environment, which wins over the file (docs/census.md, "Configuration").
            """)

    @Option(help: ArgumentHelp("A JSON file of settings, keyed by these options' names (also METER_CONFIG).", valueName: "file"))
    var config: String?
    @Option(help: "The address to listen on: an IPv4 or IPv6 address (0.0.0.0: every interface), or a name (default: 127.0.0.1).")
    var host: String?
    @Option(help: "The port to listen on (1…65535; 0: any free port; default: 8080).") var port: Int?
    @Option(help: "A SQLite file path, or postgres://user:password@host:port/database (default: ./census.sqlite).")
    var database: String?
    @Option(help: ArgumentHelp("A PostgreSQL replica of --database (postgres://…), where reports, the dashboard, session lists and certification read; its lag is shown on the dashboard and in /metrics (default: they read --database).", valueName: "url"))
    var readDatabase: String?
    @OptionGroup(title: "What the census takes and keeps") var policy: PolicyOptions
    @OptionGroup(title: "Connections") var connections: ConnectionOptions
    @Option(help: "The token the dashboard and read API require (also APPMETER_CENSUS_TOKEN). Beyond loopback one is always required: without this option a random one is made and logged.")
    var token: String?
    @Option(help: "Log level: trace, debug, info, notice, warning, error, critical (default: info).") var logLevel: Logger.Level?
    @Option(help: "Log format: text (for a person) or json (one object a line, for a log collector; default: text).") var logFormat: LogFormat?
    @Option(help: "One log line per request with the client's address truncated (/24, /48), hashed (a key random per process), full, or off (default: truncated).")
    var accessLog: AccessLogOption?
    @Option(help: ArgumentHelp("Answer HTTPS with this PEM certificate chain, leaf first (with --tls-key).", valueName: "file"))
    var tlsCert: String?
    @Option(help: ArgumentHelp("The certificate's PEM private key (with --tls-cert).", valueName: "file"))
    var tlsKey: String?

    func run() async throws {
        guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, *) else {
            throw MeterFailure(.unavailable, "meter serve needs macOS 15 or later (swift-configuration)")
        }
        let settings = try ServeSettings(self, SettingResolver(configFile: config ?? ProcessInfo.processInfo.environment["METER_CONFIG"]))
        let (host, port, database) = (settings.host, settings.port, settings.database)
        bootstrapLogging(settings.logLevel, format: settings.logFormat)
        let logger = Logger(label: "Census")
        let access = Self.access(host: host, token: settings.token, logger: logger)
        var tls: CensusTLS?
        if let files = settings.tls {
            do { tls = try CensusTLS(certificateFile: files.cert, keyFile: files.key) } catch CensusError.notBuiltIn(let feature, let trait) {
                throw CensusError.notBuiltIn(feature: feature, trait: trait)
            } catch {
                throw MeterFailure(.noInput, "\(error)")
            }
        }
        let census: RunningCensus
        do {
            census = try await RunningCensus.start(database: database, readDatabase: settings.readDatabase, host: host, port: port, tls: tls, access: access,
                                                   policy: settings.policy, connectionLimits: settings.limits,
                                                   accessLog: settings.accessLog.makeAccessLog(format: settings.logFormat), logger: logger)
        } catch {
            // The set-up's own failures say what failed; anything else (a port, a migration) is told where.
            if case CensusError.badDatabaseURL = error { throw error }
            if case CensusError.databaseUnreachable = error { throw error }
            if case CensusError.schemaNewer = error { throw error }
            if case CensusError.notBuiltIn = error { throw error }
            if case CensusError.tlsUnusable = error { throw MeterFailure(.noInput, "\(error)") }
            throw MeterFailure(.unavailable, "cannot listen on \(host) port \(port), or open \(database): \(error)")
        }
        let url = ListenAddress.browserURL(host: host, port: census.port, https: tls != nil)
        let limits = settings.limits
        logger.info("census storing in \(database), listening on \(host) port \(census.port); dashboard at \(url), browser SDK demo player at \(url)\(BrowserController.browserDemoRoute.dropFirst())")
        logger.info("at most \(limits.maxConnections) connections (open-file limit \(ConnectionLimits.openFileLimit)); a head within \(limits.headerTimeout), a body within \(limits.bodyTimeout), idle \(limits.idleTimeout), answers read within \(limits.writeTimeout); \(limits.bodyBudget >> 20) MiB of request bodies at once")
        try await census.runUntilTerminated()
    }

    /// The read access for a census on `host`: open on loopback unless a token is given; beyond
    /// loopback always a token (a random one, logged, when none is given).
    static func access(host: String, token: String?, logger: Logger) -> CensusAccess {
        if let token, !token.isEmpty { return CensusAccess(token: token) }
        guard !CensusAccess.isLoopback(host) else { return .open }
        var generator = SystemRandomNumberGenerator()
        let made = (0..<4).map { _ in String(format: "%016llx", generator.next() as UInt64) }.joined()
        logger.notice("listening beyond loopback: the dashboard and read API need this token (set --token or METER_TOKEN to choose one): \(made)")
        return CensusAccess(token: made)
    }
}
