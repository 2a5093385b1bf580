import CensusStore
import Foundation
import Logging
import ServiceLifecycle

/// The census's upkeep while it serves: every ``CensusPolicy/maintenancePeriod`` seconds it
/// reloads app settings (so `meter apps set` against the same database takes effect), makes the
/// partitions of the coming weeks' pings where the engine has them, prunes
/// rejects and traces past their retention (and pings, when the operator keeps them for a
/// while), and re-reads the storage budget. Stops at graceful shutdown.
struct CensusMaintenance: Service {
    let intake: CensusIntake

    func run() async throws {
        try? await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                await intake.maintain()
                try await Task.sleep(for: .seconds(max(1, intake.policy.maintenancePeriod)))
            }
        }
    }
}

extension CensusIntake {
    /// One round of upkeep (``CensusMaintenance``), retention as of the census's ``clock``;
    /// failures are logged and tried again next round.
    package func maintain() async {
        do {
            try await registry.reload(from: store)
            let limits = policy.storage
            let millisecondsPerDay: Int64 = 86_400_000
            let nowMilliseconds = clock.milliseconds()
            let pruned = try await store.prune(
                before: nowMilliseconds - limits.retentionDays * millisecondsPerDay,
                pingsBefore: limits.pingRetentionDays.map { nowMilliseconds - $0 * millisecondsPerDay })
            if pruned > 0 { events.logger.info("pruned past retention", metadata: ["rows": "\(pruned)"]) }
            try await budget.reload(from: store)
        } catch {
            events.logger.warning("maintenance failed; trying again next round", metadata: ["error": "\(error)"])
        }
        // Apart: a week waiting for its lock (``WeeklyPingPartitions``) holds up nothing else, and
        // the default partition keeps the pings meanwhile.
        do {
            try await store.preparePings()
        } catch {
            events.logger.warning("making the coming weeks' partitions failed; trying again next round", metadata: ["error": "\(error)"])
        }
    }
}
