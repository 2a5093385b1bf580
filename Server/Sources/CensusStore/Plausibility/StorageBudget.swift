import MeterWire
import NIOConcurrencyHelpers

/// What the census keeps of what it refuses and of call traces, and for how long
/// (docs/census.md §6). Senders choose their appid, so a per-app quota alone bounds nothing:
/// each store also has a budget for all apps together.
package struct StorageLimits: Sendable, Equatable {
    /// Bytes of refused requests kept per app (the app a request names; "" when none).
    package var rejectBytesPerApp: Int64 = 8 << 20
    /// Bytes of refused requests kept in all.
    package var rejectBytes: Int64 = 32 << 20
    /// Bytes of call traces kept per app.
    package var traceBytesPerApp: Int64 = 16 << 20
    /// Bytes of call traces kept in all.
    package var traceBytes: Int64 = 64 << 20
    /// Entries kept of one traced session; a batch beyond it is answered 413.
    package var traceEntriesPerSession: Int64 = 20_000
    /// Days refused requests and traces are kept.
    package var retentionDays: Int64 = 7
    /// Days pings are kept, when the operator sets it; nil keeps them (the default: pings are
    /// the census's product and are never pruned unless asked).
    package var pingRetentionDays: Int64?

    /// The defaults: tens of MiB in all.
    package static let standard = StorageLimits()

    /// Creates limits; every value has a default.
    package init() {}
}

/// The bytes refused requests and traces take, per app and in all, checked before each is
/// stored: over a limit a reject is counted but not stored, and a trace batch is answered 503
/// with `Retry-After` (``CensusServer``). ``CensusMaintenance`` prunes by age and reloads it.
package final class StorageBudget: Sendable {
    /// What a row costs beyond its text: ids, times, index entries.
    package static let rowOverhead: Int64 = 64
    /// The longest reason stored.
    package static let maxReasonCharacters = 1_024

    /// One store's usage.
    struct Usage: Sendable {
        var total: Int64 = 0
        var byApp: [String: Int64] = [:]
    }

    /// The stores the budget covers.
    package enum Store: Sendable { case rejects, traces }

    package let limits: StorageLimits
    private let usage = NIOLockedValueBox<(rejects: Usage, traces: Usage)>((Usage(), Usage()))

    /// A budget of `limits`, empty until ``reload(from:)``.
    package init(limits: StorageLimits = .standard) {
        self.limits = limits
    }

    /// Takes `bytes` for `appid` from `store`'s budget; false, taking nothing, when that would
    /// pass the app's quota or the budget for all.
    package func reserve(_ bytes: Int64, for appid: String, in store: Store) -> Bool {
        let (perApp, total) = store == .rejects
            ? (limits.rejectBytesPerApp, limits.rejectBytes) : (limits.traceBytesPerApp, limits.traceBytes)
        return usage.withLockedValue { usage in
            var current = store == .rejects ? usage.rejects : usage.traces
            let app = current.byApp[appid, default: 0]
            guard current.total.saturatingAdd(bytes) <= total, app.saturatingAdd(bytes) <= perApp else { return false }
            current.total += bytes
            current.byApp[appid] = app + bytes
            if store == .rejects { usage.rejects = current } else { usage.traces = current }
            return true
        }
    }

    /// The bytes `store` holds now.
    package func used(in store: Store) -> Int64 {
        usage.withLockedValue { store == .rejects ? $0.rejects.total : $0.traces.total }
    }

    /// Reads what the database holds.
    package func reload(from store: PingStore) async throws {
        let rejects = try await store.storedBytesByApp(in: "census_rejects")
        let traces = try await store.storedBytesByApp(in: "census_trace")
        func usage(_ rows: [(String, Int64)]) -> Usage {
            Usage(total: rows.reduce(0) { $0.saturatingAdd($1.1) }, byApp: Dictionary(rows, uniquingKeysWith: +))
        }
        self.usage.withLockedValue { $0 = (usage(rejects), usage(traces)) }
    }

    /// What a trace entry costs, stored as `json`.
    static func bytes(ofTraceEntry json: String) -> Int64 {
        Int64(json.utf8.count) + rowOverhead
    }

    /// What a refused request costs.
    package static func bytes(ofReject reason: String, _ rawRequest: String) -> Int64 {
        Int64(reason.utf8.count + rawRequest.utf8.count) + rowOverhead
    }

    /// The app a refused request names: its `c13=asid,` value as sent (``PingQuery/leniently(_:in:limit:)``:
    /// the request may be one the reader refused), or `P` + the apid of an AMP event's path
    /// (``WireRoute/ampEventPrefix``); "" when it names none. At most ``ConfigRequestField``'s 64
    /// bytes, so a long one cannot buy a quota of its own with every byte.
    package static func appid(ofRequest request: String) -> String {
        let utf8 = request.utf8
        let query = utf8.firstIndex(of: UInt8(ascii: "?")).map { request[utf8.index(after: $0)...] } ?? request[request.endIndex...]
        if let appid = PingQuery.leniently(.appID, in: query, limit: 64) {
            return appid
        }
        guard utf8.starts(with: WireRoute.ampEventPrefix.utf8) else { return "" }
        let apid = utf8.dropFirst(WireRoute.ampEventPrefix.utf8.count)
            .prefix { $0 != UInt8(ascii: "/") && $0 != UInt8(ascii: "?") && $0 != UInt8(ascii: "&") }.prefix(63)
        return "P" + String(decoding: apid, as: UTF8.self)
    }
}
