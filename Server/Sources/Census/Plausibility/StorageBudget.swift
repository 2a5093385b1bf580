import MeterWire
import NIOConcurrencyHelpers

/// What the census keeps of what it refuses and of call traces, and for how long
/// (docs/census.md §6). Senders choose their appid, so a per-app quota alone bounds nothing:
/// each store also has a budget for all apps together.
public struct StorageLimits: Sendable, Equatable {
    /// Bytes of refused requests kept per app (the app a request names; "" when none).
    public var rejectBytesPerApp: Int64 = 8 << 20
    /// Bytes of refused requests kept in all.
    public var rejectBytes: Int64 = 32 << 20
    /// Bytes of call traces kept per app.
    public var traceBytesPerApp: Int64 = 16 << 20
    /// Bytes of call traces kept in all.
    public var traceBytes: Int64 = 64 << 20
    /// Entries kept of one traced session; a batch beyond it is answered 413.
    public var traceEntriesPerSession: Int64 = 20_000
    /// Days refused requests and traces are kept.
    public var retentionDays: Int64 = 7
    /// Days pings are kept, when the operator sets it; nil keeps them (the default: pings are
    /// the census's product and are never pruned unless asked).
    public var pingRetentionDays: Int64?

    /// The defaults: tens of MiB in all.
    public static let standard = StorageLimits()

    /// Creates limits; every value has a default.
    public init() {}
}

/// The bytes refused requests and traces take, per app and in all, checked before each is
/// stored: over a limit a reject is counted but not stored, and a trace batch is answered 503
/// with `Retry-After` (``CensusServer``). ``CensusMaintenance`` prunes by age and reloads it.
package final class StorageBudget: Sendable {
    /// What a row costs beyond its text: ids, times, index entries.
    static let rowOverhead: Int64 = 64
    /// The longest reason stored.
    static let maxReasonCharacters = 1_024

    /// One store's usage.
    struct Usage: Sendable {
        var total: Int64 = 0
        var byApp: [String: Int64] = [:]
    }

    /// The stores the budget covers.
    enum Store: Sendable { case rejects, traces }

    let limits: StorageLimits
    private let usage = NIOLockedValueBox<(rejects: Usage, traces: Usage)>((Usage(), Usage()))

    /// A budget of `limits`, empty until ``reload(from:)``.
    package init(limits: StorageLimits = .standard) {
        self.limits = limits
    }

    /// Takes `bytes` for `appid` from `store`'s budget; false, taking nothing, when that would
    /// pass the app's quota or the budget for all.
    func reserve(_ bytes: Int64, for appid: String, in store: Store) -> Bool {
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
    func used(in store: Store) -> Int64 {
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
    static func bytes(ofReject reason: String, _ rawRequest: String) -> Int64 {
        Int64(reason.utf8.count + rawRequest.utf8.count) + rowOverhead
    }

    /// The app a refused request names: its `c13=asid,` value, or `P` + the apid of an AMP path;
    /// "" when it names none. At most ``ConfigRequestField``'s 64 bytes, so a long one cannot
    /// buy a quota of its own with every byte.
    /// `c13=asid` (the value's prefix without its comma), as bytes.
    private static let appIDMarker = Array((PingField.appID.name + "=" + PingField.appID.prefix.dropLast()).utf8)

    static func appid(ofRequest request: String) -> String {
        // One pass over contiguous bytes: a flood of refusals comes through here, each up to 8 KB
        // (a generic search per marker cost more than the rest of a refusal).
        var request = request
        return request.withUTF8 { bytes in
            if let value = valueAfter(appIDMarker, in: bytes, separatedBy: true, stop: UInt8(ascii: "&"), limit: 64) {
                return value
            }
            if let apid = valueAfter(Array("/nmapi/v2/".utf8), in: bytes, separatedBy: false, stop: UInt8(ascii: "/"), limit: 63) {
                return "P" + apid
            }
            return ""
        }
    }

    /// The bytes after the first `key` in `bytes` (and after `,` or `%2C` when `separatedBy`), up
    /// to `stop`, `?` or `&`, at most `limit` of them.
    private static func valueAfter(
        _ key: [UInt8], in bytes: UnsafeBufferPointer<UInt8>, separatedBy: Bool, stop: UInt8, limit: Int
    ) -> String? {
        guard bytes.count >= key.count else { return nil }
        var index = 0
        while index <= bytes.count - key.count {
            guard bytes[index] == key[0], key.indices.allSatisfy({ bytes[index + $0] == key[$0] }) else {
                index += 1
                continue
            }
            var start = index + key.count
            if separatedBy {
                if start < bytes.count, bytes[start] == UInt8(ascii: ",") {
                    start += 1
                } else if start + 2 < bytes.count, bytes[start] == UInt8(ascii: "%"), bytes[start + 1] == UInt8(ascii: "2"),
                          bytes[start + 2] | 0x20 == UInt8(ascii: "c") {
                    start += 3
                } else {
                    index += 1
                    continue
                }
            }
            var end = start
            while end < bytes.count, end - start < limit, bytes[end] != stop, bytes[end] != UInt8(ascii: "&"),
                  bytes[end] != UInt8(ascii: "?") {
                end += 1
            }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
        }
        return nil
    }
}
