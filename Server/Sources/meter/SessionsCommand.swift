import ArgumentParser
import CensusHTTP
import CensusStore
import MeterTables
import Foundation

/// `meter sessions`: the traced SDK sessions a census holds, with the ids `meter certify
/// --session` takes (a unique prefix of one is enough).
struct SessionsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sessions",
        abstract: "List the traced SDK sessions, latest first, with the ids `meter certify --session` takes.")

    @OptionGroup var database: DatabaseOptions
    @Option(help: "Only this appid's sessions.") var appid: String?
    @Option(help: "At most this many sessions.") var limit = 50

    func validate() throws {
        guard limit >= 1 else { throw ValidationError("--limit must be at least 1") }
    }

    func run() async throws {
        let sessions = try await database.withExistingStore { try await $0.traces.traceSessions(appid: appid, limit: limit) }
        guard !sessions.isEmpty else {
            return print("no traced session\(appid.map { " for appid \(TerminalText.escaped($0))" } ?? "") (an SDK traces with nol_devDebug set in a development configuration)")
        }
        print(TextTable.render([["session", "appid", "sdk", "calls", "first call (UTC)", "last call (UTC)"]] + sessions.map {
            [$0.session, $0.appid, $0.sdk, String($0.calls), Self.time($0.firstCall), Self.time($0.lastCall)]
        }))
    }

    /// `2026-11-25 16:30:00`, or the number itself when it is no date.
    static func time(_ seconds: Double) -> String {
        guard seconds.isFinite, abs(seconds) < 1e11 else { return String(seconds) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
        return formatter.string(from: Date(timeIntervalSince1970: seconds))
    }

    /// The session `id` names: itself when traced, else the one traced session it begins.
    static func resolve(_ id: String, in store: PingStore) async throws -> String {
        if try await !store.traces.traceSessions(session: id, limit: 1).isEmpty { return id }
        // A session id traced under two apps is one id: certify then reports it under each.
        var seen: Set<String> = []
        let matches = try await store.traces.traceSessions(limit: nil).map(\.session).filter { $0.hasPrefix(id) && seen.insert($0).inserted }
        switch matches.count {
        case 0: return id
        case 1: return matches[0]
        default:
            throw MeterFailure(.usage, "--session \(id) begins \(matches.count) sessions (\(matches.prefix(5).joined(separator: ", "))\(matches.count > 5 ? ", …" : "")): give more of it")
        }
    }
}
