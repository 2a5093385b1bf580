import CensusStore
package import Foundation
import MeterWire
import NIOConcurrencyHelpers

/// What the dashboard's live pane shows as it arrives: a stored ping, a stored part of a call
/// trace, or a refused request. Sent as JSON in server-sent events (`GET /api/v1/live`).
package enum LiveEvent: Sendable, Equatable, Encodable {
    case ping(appid: String, pingID: String, pingType: String, kind: String, assetid: String, seconds: Int64)
    case calls(session: String, appid: String, calls: [String])
    case reject(reason: String)

    private enum Key: String, CodingKey { case kind, appid, pingID, pingType, creditKind, assetid, seconds, session, calls, reason }

    package func encode(to encoder: any Encoder) throws {
        var fields = encoder.container(keyedBy: Key.self)
        switch self {
        case .ping(let appid, let pingID, let pingType, let kind, let assetid, let seconds):
            try fields.encode("ping", forKey: .kind)
            try fields.encode(appid, forKey: .appid)
            try fields.encode(pingID, forKey: .pingID)
            try fields.encode(pingType, forKey: .pingType)
            try fields.encode(kind, forKey: .creditKind)
            try fields.encode(assetid, forKey: .assetid)
            try fields.encode(seconds, forKey: .seconds)
        case .calls(let session, let appid, let calls):
            try fields.encode("calls", forKey: .kind)
            try fields.encode(session, forKey: .session)
            try fields.encode(appid, forKey: .appid)
            try fields.encode(calls, forKey: .calls)
        case .reject(let reason):
            try fields.encode("reject", forKey: .kind)
            try fields.encode(reason, forKey: .reason)
        }
    }
}

/// Fans live events out to the dashboards watching. Publishing costs a lock and a count check
/// when nobody watches (the ingest fast path calls it for every ping); each watcher keeps at
/// most ``bufferLimit`` events, so a slow page cannot grow the census's memory.
package final class LiveFeed: Sendable {
    /// The most dashboards watching at once.
    package static let maxWatchers = 32
    /// Events kept for a watcher that reads slower than they come.
    package static let bufferLimit = 512

    private let watchers = NIOLockedValueBox<[UUID: AsyncStream<String>.Continuation]>([:])
    private let closed = NIOLockedValueBox(false)

    package init() {}

    /// A new watcher's events as JSON lines, or nil when ``maxWatchers`` are watching or the feed is closed.
    package func watch() -> (id: UUID, events: AsyncStream<String>)? {
        let (stream, continuation) = AsyncStream.makeStream(of: String.self, bufferingPolicy: .bufferingNewest(Self.bufferLimit))
        let id = UUID()
        let added = watchers.withLockedValue { watchers -> Bool in
            guard watchers.count < Self.maxWatchers, !closed.withLockedValue({ $0 }) else { return false }
            watchers[id] = continuation
            return true
        }
        guard added else { return nil }
        continuation.onTermination = { [weak self] _ in self?.stopWatching(id) }
        return (id, stream)
    }

    /// Ends one watcher's stream.
    package func stopWatching(_ id: UUID) {
        watchers.withLockedValue { $0.removeValue(forKey: id) }?.finish()
    }

    /// Sends `event` to every watcher.
    package func publish(_ event: @autoclosure () -> LiveEvent) {
        let current = watchers.withLockedValue { $0.isEmpty ? [] : Array($0.values) }
        guard !current.isEmpty else { return }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        guard let data = try? encoder.encode(event()) else { return }
        let line = String(decoding: data, as: UTF8.self)
        for continuation in current { continuation.yield(line) }
    }

    /// Ends every stream and takes no more watchers (the server is stopping: open event streams
    /// would hold its graceful shutdown forever).
    package func close() {
        closed.withLockedValue { $0 = true }
        let all = watchers.withLockedValue { watchers in
            defer { watchers.removeAll() }
            return Array(watchers.values)
        }
        for continuation in all { continuation.finish() }
    }
}
