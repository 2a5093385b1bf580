import CensusHTTP
import CensusStore
import MeterTables
import Foundation
import Logging

/// Everything `meter serve` runs with, each setting resolved from its flag, the environment or the
/// config file (``SettingResolver``) and checked by the one rule it has, whatever its source.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, *)
struct ServeSettings {
    var host: String
    var port: Int
    var database: DatabaseLocation
    var readDatabase: DatabaseLocation?
    var token: String?
    var logLevel: Logger.Level
    var logFormat: LogFormat
    var tls: (cert: String, key: String)?
    var accessLog: AccessLogOption
    var limits: ConnectionLimits
    var policy: CensusPolicy

    /// The settings of `command`'s flags, else of `resolver`'s sources, else the defaults.
    init(_ command: ServeCommand, _ resolver: SettingResolver, environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        host = try resolver.resolve("host", flag: command.host, standard: "127.0.0.1", check: ListenAddress.hostProblem).value
        port = try resolver.resolve("port", flag: command.port, standard: 8080, check: ListenAddress.portProblem).value
        database = DatabaseLocation(argument: try resolver.resolve("database", flag: command.database, standard: "./census.sqlite").value)
        let primary = database
        readDatabase = try resolver.resolve("read-database", flag: command.readDatabase, check: { Self.readDatabaseProblem($0, of: primary) })
            .map { DatabaseLocation(argument: $0.value) }
        // METER_TOKEN's older name, APPMETER_CENSUS_TOKEN, still comes after the flag and before the file.
        let token = try resolver.resolve("token", flag: command.token)
        switch token?.source {
        case .flag?, .environment?: self.token = token?.value
        default: self.token = environment["APPMETER_CENSUS_TOKEN"] ?? token?.value
        }
        logLevel = try resolver.resolve("log-level", flag: command.logLevel, standard: .info).value
        logFormat = try resolver.resolve("log-format", flag: command.logFormat, standard: .text).value
        accessLog = try resolver.resolve("access-log", flag: command.accessLog, standard: .truncated).value
        let cert = try resolver.resolve("tls-cert", flag: command.tlsCert), key = try resolver.resolve("tls-key", flag: command.tlsKey)
        switch (cert, key) {
        case (nil, nil): tls = nil
        case let (cert?, key?): tls = (cert.value, key.value)
        case let (one?, nil), let (nil, one?):
            throw MeterFailure(.usage, "--tls-cert and --tls-key go together: give both for HTTPS, or neither (only \(one.source.name) is set)")
        }
        limits = try command.connections.limits(resolver)
        policy = try command.policy.policy(resolver)
        try resolver.refuseUnknownKeys()
    }

    /// What is wrong with `url` as `--read-database`, a PostgreSQL replica of a PostgreSQL
    /// `--database` (census-decisions.md S49): SQLite's one file has no replica to read.
    static func readDatabaseProblem(_ url: String, of database: DatabaseLocation) -> String? {
        switch (DatabaseLocation(argument: url), database) {
        case (.postgres, .postgres): nil
        case (.postgres, .sqlite): "reads a PostgreSQL replica, and --database is a SQLite file, which has none"
        case (.sqlite, _): "is not a PostgreSQL URL (postgres://…): it names a replica of a PostgreSQL --database"
        }
    }
}
