import Foundation
import MeterWire
import SQLKit

/// The per-app settings returned by the config handshake.
package struct AppSettings: Sendable, Equatable, Codable {
    /// False turns the SDK off for this app (the server-side kill switch).
    package var enabled: Bool
    /// The SDK sends a duration ping at least every this many credited seconds.
    package var durationPingInterval: Int64
    /// The app's market (an appInfo `sfcode`, lowercase), which its pages' configuration file
    /// announces (docs/decisions.md B11a); nil when the census has none for it.
    package var sfcode: String?

    /// Creates settings.
    package init(enabled: Bool, durationPingInterval: Int64, sfcode: String? = nil) {
        self.enabled = enabled
        self.durationPingInterval = durationPingInterval
        self.sfcode = sfcode
    }

    /// Whether `sfcode` can be stored as an app's market: 1–32 lowercase letters, digits and `-`
    /// (the guides' `it`, `pl-cert`, `uat-cert`…); it goes into a page's configuration file.
    package static func isValidSFCode(_ sfcode: String) -> Bool {
        (1...32).contains(sfcode.utf8.count)
            && sfcode.utf8.allSatisfy { (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x2D }
    }

    /// What an app without an entry gets.
    package static let standard = AppSettings(enabled: true, durationPingInterval: ConfigAnswer.defaultInterval)
}

/// An app the census has settings for, as ``AppRegistry`` keeps it.
package struct RegisteredApp: Sendable, Equatable {
    /// The app id.
    package var appid: String
    /// What the config handshake tells its SDKs.
    package var settings: AppSettings
    /// The largest interval announced before the last change, while pings built under it may
    /// still be queued (``AppRegistry/queueWindow``); 0 when none.
    package var intervalCeiling: Int64
    /// When the interval last changed, Unix seconds; 0 when never.
    package var intervalChangedAt: Int64
}

/// The apps the census has settings for (`census_apps`): what the config handshake tells their
/// SDKs, and what ``AppRegistry`` keeps in memory. A ``PingStore``'s ``PingStore/apps``.
package struct AppStore: Sendable {
    /// The database.
    let database: any CensusDatabase
    /// The census's clock, which dates a change of interval.
    let clock: any CensusClock

    /// The settings for `appid` (``AppSettings/standard`` when it has none).
    package func settings(for appid: String) async throws -> AppSettings {
        try await app(appid)?.settings ?? .standard
    }

    /// `appid`'s entry, or nil when the census has none.
    package func app(_ appid: String) async throws -> RegisteredApp? {
        try await database.withSQL { db in
            try await db.select().columns(Self.appColumns).from("census_apps").where("appid", .equal, appid).first()
                .map(Self.registeredApp)
        }
    }

    /// Every app the census has settings for, by appid.
    package func apps() async throws -> [RegisteredApp] {
        try await database.withSQL { db in
            try await db.select().columns(Self.appColumns).from("census_apps").orderBy("appid").all().map(Self.registeredApp)
        }
    }

    /// Stores the settings for `appid`. A change of interval remembers the larger of the old
    /// intervals announced within ``AppRegistry/queueWindow``: SDKs may still send pings built
    /// under it, and ``CreditBounds`` must not take their seconds for inflation.
    /// `now` is Unix seconds, by default the store's clock.
    package func setSettings(_ settings: AppSettings, for appid: String, now: Int64? = nil) async throws {
        let now = now ?? clock.seconds()
        let previous = try await app(appid)
        var ceiling = previous?.intervalCeiling ?? 0
        var changedAt = previous?.intervalChangedAt ?? 0
        // An app without an entry announced the standard settings until now.
        let before = previous?.settings ?? .standard
        if before.durationPingInterval != settings.durationPingInterval {
            let stillQueued = now - changedAt < AppRegistry.queueWindow ? ceiling : 0
            ceiling = max(stillQueued, before.durationPingInterval)
            changedAt = now
        }
        let (newCeiling, newChangedAt) = (ceiling, changedAt)
        try await database.withCommittedSQL { db in
            try await db.insert(into: "census_apps").columns(Self.appColumns)
                .values(appid, settings.enabled ? 1 : 0, settings.durationPingInterval, newCeiling, newChangedAt,
                        settings.sfcode ?? "")
                .onConflict(with: ["appid"]) { update in
                    var update = update
                    for column in Self.appColumns.dropFirst() { update = update.set(excludedValueOf: column) }
                    return update
                }
                .run()
        }
    }

    static let appColumns = ["appid", "enabled", "duration_ping_interval", "interval_ceiling", "interval_changed_at", "sfcode"]

    /// The column of each app's market ('' for none): census-decisions.md S43a.
    static func addMarket(_ db: CensusSQL) async throws {
        try await db.raw("ALTER TABLE census_apps ADD COLUMN \(unsafeRaw: db.engine.addColumnIfNotExists)sfcode TEXT NOT NULL DEFAULT ''").run()
        try await db.engine.makeTextByteOrdered(db)
    }

    static func registeredApp(_ row: any SQLRow) throws -> RegisteredApp {
        RegisteredApp(
            appid: try row.decode(column: "appid", as: String.self),
            settings: AppSettings(
                enabled: try row.decode(column: "enabled", as: Int64.self) != 0,
                durationPingInterval: try row.decode(column: "duration_ping_interval", as: Int64.self),
                sfcode: try row.decode(column: "sfcode", as: String.self).nilIfEmpty),
            intervalCeiling: try row.decode(column: "interval_ceiling", as: Int64.self),
            intervalChangedAt: try row.decode(column: "interval_changed_at", as: Int64.self))
    }
}

private extension String {
    var nilIfEmpty: String? { isEmpty ? nil : self }
}
