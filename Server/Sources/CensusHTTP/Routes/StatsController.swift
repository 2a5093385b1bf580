import CensusStore
import Hummingbird

/// What the census has taken, for its operator: `GET /api/v1/stats` (JSON, behind the read token
/// with the rest of the API) and `GET /metrics` (Prometheus text, behind the read token when one
/// is set: census-decisions.md S35).
struct StatsController {
    let intake: CensusIntake
    /// Where the stored counts are read (a replica, with `--read-database`).
    let reads: PingStore
    let replica: ReadReplica?
    let connections: ConnectionTable
    let access: CensusAccess

    func addRoutes(to router: Router<BasicRequestContext>) {
        router.group("metrics").add(middleware: AccessGuard(access: access)).get { _, _ in
            let text = intake.events.metrics.exposition(counters: intake.events.sinceStart, connections: connections.counters,
                                                        queues: intake.writer.queues, stalledSeconds: intake.writer.stalledSeconds,
                                                        replica: replica?.status)
            return Response(status: .ok, headers: [.contentType: CensusMetrics.contentType],
                            body: .init(byteBuffer: ByteBuffer(bytes: text)))
        }
    }

    func addRoutes(to api: RouterGroup<BasicRequestContext>) {
        api.get("stats") { _, _ in
            let counts = try await reads.counts()
            return StatsResponse(storedPings: counts.pings, storedRejects: counts.rejects, sinceStart: intake.events.sinceStart,
                                 connections: connections.counters, readReplica: replica?.status)
        }
    }
}
