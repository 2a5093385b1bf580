import Foundation
import MeterWire
import SQLKit

/// What the dashboard lists a session by, besides its id: its app's name, its assets, its platform.
package struct SessionLabel: Sendable, Equatable, Codable {
    /// The app's name as the SDK was given it (`appname`) or the pings carry it (`c15`).
    package var appName: String
    /// The first assets it played (at most ``SessionLabel/kept``).
    package var assets: [String]
    /// `iOS`, `Linux`, `browser` or `Google AMP`, from the SDK's version prefix; else the SDK as it named itself.
    package var platform: String

    /// Each stored property as given.
    package init(appName: String, assets: [String], platform: String) {
        self.appName = appName
        self.assets = assets
        self.platform = platform
    }

    /// How many assets a label names.
    package static let kept = 3

    /// The platform an SDK version names (`ai.1.0.0`: the iOS SDK).
    static func platform(ofSDK sdk: String) -> String {
        switch sdk.split(separator: ".", maxSplits: 1).first {
        case "ai": "iOS"
        case "al": "Linux"
        case "aw": "browser"
        case "amp": "Google AMP"
        default: sdk
        }
    }
}

/// The sessions list beyond the call traces: labels, and Google AMP's page views, which the census
/// credits by replaying their requests and which no SDK traces.
extension SessionStore {
    /// The calls a label is read from, and how many of a session's first ones are read.
    private static let labelCalls = ["init", "loadMetadata", "trackEvent", "sendID3"]
    private static let labelEntries = 12

    /// The label of a traced session, from its first `init`, `loadMetadata`, `trackEvent` and
    /// `sendID3` calls under its app: a bounded read whatever the trace's length.
    package func label(ofTraced row: TraceSessionRow) async throws -> SessionLabel {
        let entries = try await database.withSQL { db in
            let decoder = JSONDecoder()
            return try await db.select().column("entry").from("census_trace").where("session", .equal, row.session)
                .where("appid", .equal, row.appid).where("call", .in, Self.labelCalls).orderBy("seq").limit(Self.labelEntries).all()
                .compactMap { try? decoder.decode(CallTraceEntry.self, from: Data(try $0.decode(column: "entry", as: String.self).utf8)) }
        }
        var assets: [String] = []
        for entry in entries {
            let named = entry.is(.trackEvent) ? [entry[argument: TracedArgument.assetid(of: "ad")], entry[argument: TracedArgument.assetid(of: "content")]]
                : entry.is(.sendID3) ? [] : [entry[.assetid]]
            for asset in named where !asset.isEmpty && !assets.contains(asset) && assets.count < SessionLabel.kept { assets.append(asset) }
        }
        let appName = entries.first { $0.is(.initialize) }?[.appName] ?? ""
        return SessionLabel(appName: appName, assets: assets, platform: SessionLabel.platform(ofSDK: row.sdk))
    }

    /// Google AMP's page views, latest first, as sessions with no call: the first and last
    /// request's time (`utc`, held to the window around its receipt: census-decisions.md S42)
    /// stand for the first and last call, `amp` for the SDK. Read from the page views' own
    /// record, by app and time (``AMPReplayedPings``): what other apps send, whatever ids or
    /// times they choose, is neither listed here nor read to list it (census-decisions.md S43).
    package func ampPageViews(appid: String? = nil, limit: Int = 200) async throws -> [TraceSessionRow] {
        try await database.withSQL { db in
            var select = db.select().columns("session_id", "appid", "first_at", "last_at").from("census_amp_page_views")
            if let appid { select = select.where("appid", .equal, appid) }
            return try await select.orderBy("last_at", .descending).limit(limit).all()
                .map { row in
                    TraceSessionRow(session: try row.decode(column: "session_id", as: String.self),
                                    appid: try row.decode(column: "appid", as: String.self), sdk: "amp",
                                    firstCall: Double(try row.decode(column: "first_at", as: Int64.self)),
                                    lastCall: Double(try row.decode(column: "last_at", as: Int64.self)), calls: 0)
                }
        }
    }

    /// The pings the census replayed of Google AMP page view `session`, in creation order (only
    /// those of the first `first` ids the replay built, when given), or nil when it replayed none: read by
    /// the ids its last replay stored, under its app, never through a span of times.
    package func ampPageViewPings(session: String, first: Int? = nil) async throws -> (appid: String, pings: [StoredPing])? {
        guard let record = try await database.withSQL({ db in try await AMPReplayedPings.record(of: session, db) }) else {
            return nil
        }
        let keys = first.map { Array(record.ids.prefix($0)) } ?? record.ids
        var found: [StoredPing] = []
        for start in stride(from: 0, to: keys.count, by: 500) {
            let chunk = Array(keys[start..<min(start + 500, keys.count)])
            found += try await database.withSQL { db in
                try await db.select().columns(StoredPing.columns).from("census_pings")
                    .where(try await db.engine.pings.rows(withKeys: chunk, db)).where("appid", .equal, record.appid)
                    .all().map(StoredPing.init(reading:))
            }
        }
        return (record.appid, found.sorted { ($0.createdAt, $0.pingID) < ($1.createdAt, $1.pingID) })
    }
}
