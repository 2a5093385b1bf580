import CensusStore
import Hummingbird
import SQLKit

/// `GET /healthz` (the process answers) and `GET /readyz` (the store answers too).
struct HealthController {
    let store: PingStore
    /// The pings' writer: stalled, it makes the census not ready at once.
    let writer: PingWriter

    func addRoutes(to router: Router<BasicRequestContext>) {
        router.get("/healthz") { _, _ in Response.text(.ok, "ok") }
        router.get("/readyz") { _, _ in await readiness() }
    }

    /// How long the store may take to answer a readiness check: on SQLite a query may wait for a
    /// checkpoint of the log, so the margin is wide; a database that is away does not answer at all.
    static let readinessTimeout: Duration = .seconds(5)

    /// `GET /readyz`: `200 ready` when the store answers a query within ``readinessTimeout``, else
    /// `503` saying why, so that a load balancer or an orchestrator sends pings elsewhere while the
    /// database is away; at once while the pings' writer is stalled with its probe in flight
    /// (census-decisions.md S47).
    /// `/healthz` says only that the process answers.
    func readiness() async -> Response {
        if writer.probing { return CensusError.notReady(reason: "no write answered for \(writer.stalledSeconds) s").response }
        do {
            let database = store.database
            try await answering(within: Self.readinessTimeout) {
                try await database.withSQL { _ = try await $0.raw("SELECT 1 AS one").all() }
            }
            return .text(.ok, "ready")
        } catch {
            return CensusError.notReady(reason: "\(error)").response
        }
    }
}
