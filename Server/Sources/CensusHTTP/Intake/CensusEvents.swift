import CensusStore
package import Logging
import NIOConcurrencyHelpers
import MeterContract

/// The one sink of ``CensusEvent``s: what each changes in the counters, `/metrics`, the live feed
/// and the log is decided here and nowhere else.
package struct CensusEvents: Sendable {
    /// Counts since start, behind a lock: the ping fast path records on its event loop, without a hop.
    private let counters = NIOLockedValueBox(CensusCounters())
    /// What `GET /metrics` exposes: this server's own registry, never a process-wide one.
    package let metrics = CensusMetrics()
    /// What the dashboards watching live are sent.
    package let feed = LiveFeed()
    package let logger: Logger

    package init(logger: Logger) {
        self.logger = logger
    }

    /// The counters now.
    package var sinceStart: CensusCounters { counters.withLockedValue { $0 } }

    /// Tells every place that keeps an account of `event`.
    package func record(_ event: CensusEvent) {
        switch event {
        case .pingCommitted(let ping, let outcome):
            guard outcome == .stored else { return count { $0.duplicates += 1 } }
            count { $0.stored += 1 }
            metrics.stored(ping)
            feed.publish(.ping(appid: ping.appID, pingID: ping.pingID, pingType: ping.pingType, kind: ping.kind.rawValue,
                               assetid: ping.assetID, seconds: ping.creditedSeconds))
        case .refused(let reason, let category):
            count { $0.rejected += 1 }
            metrics.refused(category)
            // Debug: a flood of bad requests must not become a flood of log lines (the dashboard and
            // GET /api/v1/rejects show every reason).
            logger.debug("rejected", metadata: ["reason": "\(reason)"])
            feed.publish(.reject(reason: reason))
        case .refusalOverBudget:
            count { $0.rejectsNotRecorded += 1 }
        case .refusalNotRecorded(let error):
            logger.error("reject not recorded", metadata: ["error": "\(error)"])
        case .storageFailed(let error):
            logger.error("not stored", metadata: ["error": "\(error)"])
            let unconfirmed = (error as? CensusError)?.mayHaveStored == true
            count {
                $0.storageFailures += 1
                if unconfirmed { $0.storageUnconfirmed += 1 }
            }
        case .tracesOverBudget:
            count { $0.tracesOverBudget += 1 }
        case .traceStored(let batch, let new):
            count { $0.traceEntries += new }
            feed.publish(.calls(session: batch.session, appid: batch.appid, calls: batch.entries.map { TraceWalk.describe($0) }))
        case .configAnswered:
            count { $0.configRequests += 1 }
        case .ampEvent(let credited):
            count { if credited { $0.ampEvents += 1 } else { $0.ampEventsNotCredited += 1 } }
        case .ampSession:
            count { $0.ampSessions += 1 }
        case .viewabilityStored(let ping):
            count { $0.viewabilityPings += 1 }
            metrics.stored(ping)
        }
    }

    private func count(_ body: (inout CensusCounters) -> Void) {
        counters.withLockedValue { body(&$0) }
    }
}
