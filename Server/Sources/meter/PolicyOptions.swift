import ArgumentParser
import CensusHTTP
import CensusStore
import MeterTables

/// `meter serve`'s options for what the census takes and keeps (docs/census.md §4b, §6).
struct PolicyOptions: ParsableArguments {
    @Flag(inversion: .prefixedNo, help: "Refuse pings (403) of apps without settings (meter apps set); their config says not to measure (default: off).")
    var registeredAppsOnly: Bool?
    @Flag(inversion: .prefixedNo, help: "Leave the sessions the session rule flags out of the credit report (they are credited by default).")
    var excludeFlagged: Bool?
    @Option(help: "MiB of refused requests kept per app (default: \(StorageLimits.standard.rejectBytesPerApp >> 20)).") var rejectQuotaMib: Int64?
    @Option(help: "MiB of refused requests kept in all (default: \(StorageLimits.standard.rejectBytes >> 20)).") var rejectBudgetMib: Int64?
    @Option(help: "MiB of call traces kept per app (default: \(StorageLimits.standard.traceBytesPerApp >> 20)).") var traceQuotaMib: Int64?
    @Option(help: "MiB of call traces kept in all (default: \(StorageLimits.standard.traceBytes >> 20)).") var traceBudgetMib: Int64?
    @Option(help: "Trace entries kept per traced session (default: \(StorageLimits.standard.traceEntriesPerSession)).") var traceEntriesPerSession: Int64?
    @Option(help: "Days refused requests and traces are kept (default: \(StorageLimits.standard.retentionDays)).") var retentionDays: Int64?
    @Option(help: "Days pings are kept (default: kept until deleted by hand).") var pingRetentionDays: Int64?

    /// The census policy these options describe, each from its flag or `settings`' other sources.
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, *)
    func policy(_ settings: SettingResolver) throws -> CensusPolicy {
        let mib: (Int64) -> String? = { (0...(1 << 20)).contains($0) ? nil : "must be 0…1048576 MiB" }
        let standard = StorageLimits.standard
        var policy = CensusPolicy()
        policy.registeredAppsOnly = try settings.resolve("registered-apps-only", flag: registeredAppsOnly, standard: false).value
        policy.excludeFlagged = try settings.resolve("exclude-flagged", flag: excludeFlagged, standard: false).value
        policy.storage.rejectBytesPerApp = try settings.resolve("reject-quota-mib", flag: rejectQuotaMib, standard: standard.rejectBytesPerApp >> 20, check: mib).value << 20
        policy.storage.rejectBytes = try settings.resolve("reject-budget-mib", flag: rejectBudgetMib, standard: standard.rejectBytes >> 20, check: mib).value << 20
        policy.storage.traceBytesPerApp = try settings.resolve("trace-quota-mib", flag: traceQuotaMib, standard: standard.traceBytesPerApp >> 20, check: mib).value << 20
        policy.storage.traceBytes = try settings.resolve("trace-budget-mib", flag: traceBudgetMib, standard: standard.traceBytes >> 20, check: mib).value << 20
        policy.storage.traceEntriesPerSession = try settings.resolve(
            "trace-entries-per-session", flag: traceEntriesPerSession, standard: standard.traceEntriesPerSession) {
            (1...1_000_000).contains($0) ? nil : "must be 1…1000000"
        }.value
        policy.storage.retentionDays = try settings.resolve("retention-days", flag: retentionDays, standard: standard.retentionDays) {
            (1...36_500).contains($0) ? nil : "must be 1…36500"
        }.value
        policy.storage.pingRetentionDays = try settings.resolve("ping-retention-days", flag: pingRetentionDays) {
            (1...36_500).contains($0) ? nil : "must be 1…36500"
        }?.value
        return policy
    }
}
