/// What an operator decides about what the census takes and keeps (`meter serve` options,
/// docs/census.md §4b and §6).
package struct CensusPolicy: Sendable, Equatable {
    /// Storage quotas, budgets and retention of rejects and traces (and of pings, if set).
    package var storage = StorageLimits.standard
    /// Refuse pings (403) of apps without settings (`meter apps set`); their config requests
    /// answer `enabled: false`.
    package var registeredAppsOnly = false
    /// Reports leave out the sessions the session rule flags.
    package var excludeFlagged = false
    /// How often the census reloads app settings from its database, and prunes, in seconds.
    package var maintenancePeriod: Int64 = 10

    /// The defaults: every app, flagged sessions credited, tens of MiB of rejects and traces kept a week.
    package static let standard = CensusPolicy()

    /// Creates a policy; every value has a default.
    package init() {}
}
