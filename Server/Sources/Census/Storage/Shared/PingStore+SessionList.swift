import Foundation
import MeterWire
import SQLKit

/// What the dashboard lists a session by, besides its id: its app's name, its assets, its platform.
public struct SessionLabel: Sendable, Equatable, Codable {
    /// The app's name as the SDK was given it (`appname`) or the pings carry it (`c15`).
    public var appName: String
    /// The first assets it played (at most ``SessionLabel/kept``).
    public var assets: [String]
    /// `iOS`, `Linux`, `browser` or `Google AMP`, from the SDK's version prefix; else the SDK as it named itself.
    public var platform: String

    /// How many assets a label names.
    static let kept = 3

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
extension PingStore {
    /// The calls a label is read from, and how many of a session's first ones are read.
    private static let labelCalls = ["init", "loadMetadata", "trackEvent", "sendID3"]
    private static let labelEntries = 12

    /// The label of a traced session, from its first `init`, `loadMetadata`, `trackEvent` and
    /// `sendID3` calls: a bounded read whatever the trace's length.
    public func label(ofTraced row: TraceSessionRow) async throws -> SessionLabel {
        let entries = try await database.withSQL { db in
            let decoder = JSONDecoder()
            return try await db.select().column("entry").from("census_trace").where("session", .equal, row.session)
                .where("call", .in, Self.labelCalls).orderBy("seq").limit(Self.labelEntries).all()
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

    /// Google AMP's page views, latest first, as sessions with no call: their span of creation
    /// times stands for the first and last call, `amp` for the SDK.
    public func ampPageViews(appid: String? = nil, limit: Int = 200) async throws -> [TraceSessionRow] {
        try await database.withSQL { db in
            var select = db.select().column(SQLColumn("session_id", table: "census_sessions"))
                .column(SQLColumn("appid", table: "census_sessions"))
                .column(SQLColumn("starts_at", table: "census_sessions")).column(SQLColumn("ends_at", table: "census_sessions"))
                .from("census_amp_page_views")
                .join(SQLIdentifier("census_sessions"), method: SQLJoinMethod.inner,
                      on: SQLBinaryExpression(SQLColumn("session_id", table: "census_amp_page_views"), .equal,
                                              SQLColumn("session_id", table: "census_sessions")))
            if let appid { select = select.where(SQLColumn("appid", table: "census_sessions"), .equal, SQLBind(appid)) }
            return try await select.orderBy(SQLOrderBy(expression: SQLColumn("ends_at", table: "census_sessions"), direction: SQLDirection.descending)).limit(limit).all()
                .map { row in
                    TraceSessionRow(session: try row.decode(column: "session_id", as: String.self),
                                    appid: try row.decode(column: "appid", as: String.self), sdk: "amp",
                                    firstCall: Double(try row.decode(column: "starts_at", as: Int64.self)),
                                    lastCall: Double(try row.decode(column: "ends_at", as: Int64.self)), calls: 0)
                }
        }
    }

    /// Whether `session` is a Google AMP page view the census replayed.
    public func isAMPPageView(_ session: String) async throws -> Bool {
        try await database.withSQL { db in try await AMPReplayedPings.ids(of: session, db) != nil }
    }
}
