import ArgumentParser
import Census

/// `meter serve`'s options for what the census takes and keeps (docs/census.md §4b, §6).
struct PolicyOptions: ParsableArguments {
    @Flag(help: "Refuse pings (403) of apps without settings (meter apps set); their config says not to measure.")
    var registeredAppsOnly = false
    @Flag(help: "Leave the sessions the session rule flags out of the credit report (they are credited by default).")
    var excludeFlagged = false
    @Option(help: "MiB of refused requests kept per app.") var rejectQuotaMib: Int64 = StorageLimits.standard.rejectBytesPerApp >> 20
    @Option(help: "MiB of refused requests kept in all.") var rejectBudgetMib: Int64 = StorageLimits.standard.rejectBytes >> 20
    @Option(help: "MiB of call traces kept per app.") var traceQuotaMib: Int64 = StorageLimits.standard.traceBytesPerApp >> 20
    @Option(help: "MiB of call traces kept in all.") var traceBudgetMib: Int64 = StorageLimits.standard.traceBytes >> 20
    @Option(help: "Trace entries kept per traced session.") var traceEntriesPerSession = StorageLimits.standard.traceEntriesPerSession
    @Option(help: "Days refused requests and traces are kept.") var retentionDays = StorageLimits.standard.retentionDays
    @Option(help: "Days pings are kept (default: kept until deleted by hand).") var pingRetentionDays: Int64?

    func validate() throws {
        for (name, value) in [("--reject-quota-mib", rejectQuotaMib), ("--reject-budget-mib", rejectBudgetMib),
                              ("--trace-quota-mib", traceQuotaMib), ("--trace-budget-mib", traceBudgetMib)]
        where !(0...(1 << 20)).contains(value) {
            throw ValidationError("\(name) must be 0…1048576 MiB")
        }
        guard (1...1_000_000).contains(traceEntriesPerSession) else { throw ValidationError("--trace-entries-per-session must be 1…1000000") }
        guard (1...36_500).contains(retentionDays) else { throw ValidationError("--retention-days must be 1…36500") }
        if let pingRetentionDays, !(1...36_500).contains(pingRetentionDays) {
            throw ValidationError("--ping-retention-days must be 1…36500")
        }
    }

    /// The census policy these options describe.
    var policy: CensusPolicy {
        var policy = CensusPolicy()
        policy.registeredAppsOnly = registeredAppsOnly
        policy.excludeFlagged = excludeFlagged
        policy.storage.rejectBytesPerApp = rejectQuotaMib << 20
        policy.storage.rejectBytes = rejectBudgetMib << 20
        policy.storage.traceBytesPerApp = traceQuotaMib << 20
        policy.storage.traceBytes = traceBudgetMib << 20
        policy.storage.traceEntriesPerSession = traceEntriesPerSession
        policy.storage.retentionDays = retentionDays
        policy.storage.pingRetentionDays = pingRetentionDays
        return policy
    }
}
