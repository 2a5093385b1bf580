import Census
import Foundation
import Logging
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

    /// A fresh, empty database of this kind.
    func freshDatabase() async throws -> DatabaseLocation {
        switch self {
        case .sqlite:
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("census-test-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            return .sqlite(path: folder.appendingPathComponent("census.sqlite").path)
        case .postgres:
            let base = Backend.postgresURL!
            let name = "census_test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
            let admin = try await DatabaseLocation(argument: base).open(logger: Logger(label: "test"))
            try await admin.withSQL { try await $0.raw("CREATE DATABASE \(unsafeRaw: name)").run() }
            await admin.close()
            var components = URLComponents(string: base)!
            components.path = "/" + name
            return .postgres(url: components.string!)
        }
    }

    /// A migrated store on a fresh database; closed after `body`.
    func withStore<Result>(_ body: (PingStore) async throws -> Result) async throws -> Result {
        try await freshDatabase().withStore(logger: Logger(label: "test"), body)
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
