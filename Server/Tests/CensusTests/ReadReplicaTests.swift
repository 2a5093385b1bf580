@testable import CensusHTTP
@testable import CensusPostgres
@testable import CensusStore
import Logging
import Testing

/// `meter serve --read-database` (census-decisions.md S49): the read routes read the replica, the
/// writes go to the primary, and the replica's lag is shown; a census without one shows none.
@Suite struct ReadReplicaTests {
    /// `/metrics` as a census with `replica`'s last sample would answer it.
    static func metrics(replica: ReadReplica.Status?) -> String {
        String(decoding: CensusMetrics().exposition(counters: CensusCounters(), connections: ConnectionCounters(),
                                                    queues: ((0, 0), (0, 0)), replica: replica), as: UTF8.self)
    }

    @Test func aReplicaThatDoesNotAnswerIsShownNotAnswering() async throws {
        let database = try PostgresCensusDatabase(url: "postgres://nobody@127.0.0.1:1/none", logger: Logger(label: "test"))
        let replica = ReadReplica(store: PingStore(database: database))
        #expect(replica.status == nil)
        await replica.sample()
        await database.close()
        #expect(replica.status == ReadReplica.Status(lagSeconds: nil, answering: false))
        let text = Self.metrics(replica: replica.status)
        #expect(text.contains("appmeter_census_read_replica_answering 0.0"))
        #expect(text.contains("appmeter_census_read_replica_lag_seconds nan"), "no lag was ever sampled: not a number (Prometheus reads nan), never 0")
    }

    @Test func aCensusWithoutAReplicaShowsNoReplicaGauges() {
        #expect(!Self.metrics(replica: nil).contains("read_replica"))
    }

    @Test func aSampledLagIsShown() {
        let text = Self.metrics(replica: ReadReplica.Status(lagSeconds: 2.5, answering: true))
        #expect(text.contains("appmeter_census_read_replica_lag_seconds 2.5"))
        #expect(text.contains("appmeter_census_read_replica_answering 1.0"))
    }
}

@Suite(.enabled(if: Backend.postgresURL != nil, "needs APPMETER_TEST_POSTGRES_URL"))
struct ReadReplicaServerTests {
    /// A database of its own stands for the replica: it holds a ping the primary does not, so
    /// every answer shows which database it read.
    @Test func theReadRoutesReadTheReplicaAndWritesGoToThePrimary() async throws {
        try await Backend.postgres.withFreshDatabase { replicaLocation in
            try await replicaLocation.withStore { store in
                _ = try await store.insert([SessionSpanTests.ping("on-replica", "s-replica", at: 1_700_000_000, appid: "PREPLICA")], receivedAt: 1)
            }
            try await Backend.postgres.withFreshDatabase { primary in
                let census = try await RunningCensus.start(database: primary, readDatabase: replicaLocation)
                let port = census.port
                let stored = try await LoopbackClient.get(port: port, "/cgi-bin/gn?" + PingQueries.valid(pingID: "on-primary", appid: "PPRIMARY"))
                let report = try await LoopbackClient.get(port: port, "/api/v1/report")
                let stats = try await LoopbackClient.get(port: port, "/api/v1/stats")
                let sessions = try await LoopbackClient.get(port: port, "/api/v1/sessions/s-replica/pings")
                let metrics = try await LoopbackClient.get(port: port, "/metrics")
                let key = try await LoopbackClient.get(port: port, "/certification/key")
                let onPrimary = try await census.server.store.counts().pings
                await census.stop()
                #expect(stored.hasSuffix("stored\n"), "\(stored)")
                #expect(onPrimary == 1)
                #expect(report.contains("\"appid\":\"PREPLICA\"") && !report.contains("PPRIMARY"), "\(report)")
                #expect(report.contains("\"readReplica\":{") && report.contains("\"lagSeconds\":0") && report.contains("\"answering\":true"), "\(report)")
                #expect(stats.contains("\"storedPings\":1") && stats.contains("\"readReplica\""), "\(stats)")
                #expect(sessions.contains("on-replica"), "\(sessions)")
                #expect(metrics.contains("appmeter_census_read_replica_lag_seconds 0.0"), "\(metrics)")
                #expect(metrics.contains("appmeter_census_read_replica_answering 1.0"), "\(metrics)")
                #expect(key.hasPrefix("HTTP/1.1 200"), "the signing key is made on the primary: \(key)")
            }
        }
    }
}
