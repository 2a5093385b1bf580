import NIOConcurrencyHelpers

/// The apps the census has settings for, kept in memory so that the ping path reads an app's
/// interval bound and registration under a lock, without a query. ``reload(from:)`` refreshes it
/// from the database (``CensusMaintenance`` does so every few seconds, so `meter apps set` run
/// against the same database takes effect in a running census).
package final class AppRegistry: Sendable {
    /// How long pings built under an interval may still arrive: the SDK's offline queue keeps a
    /// ping at most this long (docs/protocol.md §3), 31 days.
    package static let queueWindow: Int64 = 31 * 86_400

    /// Whether pings of apps without settings are refused (`meter serve --registered-apps-only`).
    package let registeredOnly: Bool
    private let apps = NIOLockedValueBox<[String: RegisteredApp]>([:])

    /// An empty registry; `registeredOnly` refuses every app until ``reload(from:)`` has run.
    package init(registeredOnly: Bool = false) {
        self.registeredOnly = registeredOnly
    }

    /// Replaces the apps with what `store` holds.
    package func reload(from store: PingStore) async throws {
        let loaded = try await store.apps.apps()
        apps.withLockedValue { $0 = Dictionary(loaded.map { ($0.appid, $0) }, uniquingKeysWith: { first, _ in first }) }
    }

    /// Records `app` at once (the census changed it itself).
    func remember(_ app: RegisteredApp) {
        apps.withLockedValue { $0[app.appid] = app }
    }

    /// Whether the census takes pings of `appid`: any app, or a registered one.
    package func admits(_ appid: String) -> Bool {
        !registeredOnly || apps.withLockedValue { $0[appid] != nil }
    }

    /// The interval a duration ping of `appid` may carry at `now` (Unix seconds): the one
    /// announced, or a larger one announced within ``queueWindow`` before a change.
    package func intervalBound(for appid: String, at now: Int64) -> Int64 {
        guard let app = apps.withLockedValue({ $0[appid] }) else { return AppSettings.standard.durationPingInterval }
        let current = app.settings.durationPingInterval
        return now - app.intervalChangedAt < Self.queueWindow ? max(current, app.intervalCeiling) : current
    }
}
