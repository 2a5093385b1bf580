@testable import CensusHTTP
@testable import CensusPostgres
@testable import CensusSQLite
@testable import CensusStore
@testable import MeterTables
import Foundation
import Logging
import SQLKit
import Testing

/// The databases the census tests run against: SQLite always, PostgreSQL when CI (or a
/// developer) sets `APPMETER_TEST_POSTGRES_URL`.
enum Backend: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite
    case postgres

    static let postgresURL = ProcessInfo.processInfo.environment["APPMETER_TEST_POSTGRES_URL"]

    static var available: [Backend] {
        postgresURL == nil ? [.sqlite] : [.sqlite, .postgres]
    }

    var testDescription: String { rawValue }

    /// Runs `body` with a fresh, empty database of this kind, then removes the database (the
    /// PostgreSQL database, or the SQLite file's folder) whether `body` returned or threw: each run
    /// of the suite against a developer's PostgreSQL made some eighty databases, and kept them.
    func withFreshDatabase<Result>(_ body: (DatabaseLocation) async throws -> Result) async throws -> Result {
        let location = try await freshDatabase()
        let result: Result
        do {
            result = try await body(location)
        } catch {
            try? await Self.remove(location)
            throw error
        }
        try await Self.remove(location)
        return result
    }

    /// ``withFreshDatabase(_:)`` with the database open: it is closed when `body` ends.
    func withOpenDatabase<Result>(_ body: (any CensusDatabase) async throws -> Result) async throws -> Result {
        try await withFreshDatabase { location in
            let database = try await location.open(logger: Logger(label: "test"))
            return try await Self.run { try await body(database) } finally: { await database.close() }
        }
    }

    /// A migrated store on a fresh database, telling the time by `clock`; closed and removed after `body`.
    func withStore<Result>(
        clock: any CensusClock = SystemCensusClock(), _ body: (PingStore) async throws -> Result
    ) async throws -> Result {
        try await withFreshDatabase { try await $0.withStore(logger: Logger(label: "test"), clock: clock, body) }
    }

    /// A census server on a fresh database, stopped and its database removed after `body`.
    func withCensus<Result>(_ body: (RunningCensus) async throws -> Result) async throws -> Result {
        try await withFreshDatabase { location in
            let census = try await RunningCensus.start(database: location)
            return try await Self.run { try await body(census) } finally: { await census.stop() }
        }
    }

    /// `body`, then `cleanup` whether `body` returned or threw.
    private static func run<Result>(
        _ body: () async throws -> Result, finally cleanup: () async -> Void
    ) async throws -> Result {
        let result: Result
        do {
            result = try await body()
        } catch {
            await cleanup()
            throw error
        }
        await cleanup()
        return result
    }

    private func freshDatabase() async throws -> DatabaseLocation {
        switch self {
        case .sqlite:
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("census-test-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            return .sqlite(path: folder.appendingPathComponent("census.sqlite").path)
        case .postgres:
            let name = "census_test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
            try await Self.administer { try await $0.raw("CREATE DATABASE \(unsafeRaw: name)").run() }
            var components = URLComponents(string: Backend.postgresURL!)!
            components.path = "/" + name
            return .postgres(url: components.string!)
        }
    }

    /// Removes a database ``freshDatabase()`` made. `WITH (FORCE)` ends any connection a failed
    /// test left open, which would otherwise keep the database.
    private static func remove(_ location: DatabaseLocation) async throws {
        switch location {
        case .sqlite(let path):
            try FileManager.default.removeItem(at: URL(fileURLWithPath: path).deletingLastPathComponent())
        case .postgres(let url):
            guard let name = URLComponents(string: url)?.path.dropFirst(), name.hasPrefix("census_test_") else { return }
            try await administer { try await $0.raw("DROP DATABASE IF EXISTS \(unsafeRaw: String(name)) WITH (FORCE)").run() }
        }
    }

    /// Whether a database ``freshDatabase()`` made is still there.
    static func exists(_ location: DatabaseLocation) async throws -> Bool {
        switch location {
        case .sqlite(let path):
            return FileManager.default.fileExists(atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path)
        case .postgres(let url):
            let name = String(URLComponents(string: url)?.path.dropFirst() ?? "")
            return try await administer { sql in
                try await !sql.raw("SELECT 1 AS found FROM pg_database WHERE datname = \(bind: name)").all().isEmpty
            }
        }
    }

    /// Runs `statement` on the database of `APPMETER_TEST_POSTGRES_URL`.
    @discardableResult
    private static func administer<Result: Sendable>(
        _ statement: @Sendable (any SQLDatabase) async throws -> Result
    ) async throws -> Result {
        let admin = try await DatabaseLocation(argument: postgresURL!).open(logger: Logger(label: "test"))
        return try await run { try await admin.withSQL(statement) } finally: { await admin.close() }
    }
}

/// Builds valid ping queries for tests.
enum PingQueries {
    static func valid(
        pingID: String, appid: String = "P00000000-0000-4000-8000-000000000001", asset: String = "vid1",
        kind: String = "st,c", at: String = "timer", credited: Int = 10, session: String = "s1",
        device: String = "", optedOut: Bool = false, created: Int = 1_700_000_000
    ) -> String {
        "prd=dcr&c13=asid,\(appid)&at=\(at)&rt=video&c27=cln,\(credited)&ai=\(asset)&c3=\(kind)"
            + "&c59=sesid,\(session)&c9=devid,\(device)&uoo=\(optedOut ? "true" : "")&c61=createtm,\(created)"
            + "&pingid=\(pingID)"
    }
}

extension CensusDatabase {
    /// Inserts `pings` as a census of schema 10 or earlier stored them: unscoped ids (or the keys
    /// `key` gives: schemas 10 to 13 stored `<appid>/<pingid>`), and none of the columns later
    /// schemas added.
    func insertAsOlderSchema(_ pings: [IncomingPing], receivedAt: Int64,
                             key: @escaping @Sendable (IncomingPing) -> String = { $0.pingID }) async throws {
        try await withSQL { db in
            let columns = Array(PingStore.pingColumns.prefix(15))
            var insert = db.insert(into: "census_pings").columns(columns)
            for ping in pings {
                var values = Array(PingStore.values(of: ping, receivedAt: receivedAt).prefix(15))
                values[0] = key(ping)
                insert = insert.values(values)
            }
            try await insert.run()
        }
    }
}
