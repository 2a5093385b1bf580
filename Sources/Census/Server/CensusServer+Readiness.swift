import Hummingbird
import SQLKit

extension CensusServer {
    /// How long the store may take to answer a readiness check.
    static let readinessTimeout: Duration = .seconds(2)

    /// `GET /readyz`: `200 ready` when the store answers a query within ``readinessTimeout``, else
    /// `503` saying why, so that a load balancer or an orchestrator sends pings elsewhere while the
    /// database is away. `/healthz` says only that the process answers.
    func readiness() async -> Response {
        do {
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    try await self.store.database.withSQL { _ = try await $0.raw("SELECT 1 AS one").all() }
                }
                group.addTask {
                    try await Task.sleep(for: Self.readinessTimeout)
                    throw ReadinessTimeout()
                }
                try await group.next()
                group.cancelAll()
            }
            return .text(.ok, "ready")
        } catch {
            counters.update { $0.storageFailures += 1 }
            return .text(.serviceUnavailable, "not ready: the database does not answer (\(storageErrorDescription(error)))")
        }
    }
}

/// The store took longer than ``CensusServer/readinessTimeout``.
private struct ReadinessTimeout: Error, CustomStringConvertible {
    var description: String { "no answer within \(CensusServer.readinessTimeout)" }
}
