package import CensusStore
import NIOConcurrencyHelpers
import ServiceLifecycle

/// The replica `meter serve --read-database` names: reports, session lists, traces, certification
/// and the stored counts read from it, off the primary that takes the writes; its lag, sampled
/// every ``samplePeriod``, is shown on the dashboard, in `/api/v1/stats` and in `/metrics`
/// (census-decisions.md S49).
package final class ReadReplica: Sendable {
    /// The store over the replica: read, never written or migrated.
    package let store: PingStore
    private let last = NIOLockedValueBox<Status?>(nil)

    /// How often the lag is sampled.
    static let samplePeriod: Duration = .seconds(5)

    /// The replica as last sampled.
    package struct Status: Sendable, Equatable, Codable {
        /// Seconds its data is behind the primary's (0: caught up); nil when it did not answer.
        package var lagSeconds: Double?
        /// Whether it answered the last sample within ``HealthController/readinessTimeout``.
        package var answering: Bool
    }

    package init(store: PingStore) {
        self.store = store
    }

    /// The last sample, or nil before the first.
    package var status: Status? { last.withLockedValue { $0 } }

    /// Asks the replica its lag, within the readiness check's bound.
    package func sample() async {
        let database = store.database
        let status: Status
        do {
            let lag = try await answering(within: HealthController.readinessTimeout) { try await database.replicationLag() }
            status = Status(lagSeconds: lag ?? 0, answering: true)
        } catch {
            status = Status(lagSeconds: nil, answering: false)
        }
        last.withLockedValue { $0 = status }
    }
}

/// Samples a ``ReadReplica``'s lag every ``ReadReplica/samplePeriod`` until graceful shutdown.
struct ReadReplicaWatch: Service {
    let replica: ReadReplica

    func run() async throws {
        try? await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                await replica.sample()
                try await Task.sleep(for: ReadReplica.samplePeriod)
            }
        }
    }
}
