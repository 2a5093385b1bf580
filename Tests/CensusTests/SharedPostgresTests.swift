import AppMeter
import Census
import Foundation
import MeterDemo
import Testing

/// Two census servers on one PostgreSQL (docs/performance.md "Scaling out"): a ping retried to
/// the other server, and an AMP page view whose requests land on both, are credited once.
@Suite(.enabled(if: Backend.postgresURL != nil, "needs APPMETER_TEST_POSTGRES_URL"))
struct SharedPostgresTests {
    static func get(_ url: String) async -> Int {
        guard case .response(let status, _, _) = await URLSessionTransport(timeout: 10).send(TransportRequest(url: URL(string: url)!))
        else { return 0 }
        return status
    }

    @Test func twoServersCreditEachPingOnce() async throws {
        let database = try await Backend.postgres.freshDatabase()
        let first = try await RunningCensus.start(database: database)
        let second = try await RunningCensus.start(database: database)
        let appid = "P" + UUID().uuidString
        // 200 pings, each delivered to both servers at once (a retry after a lost answer).
        try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<200 {
                let query = PingQueries.valid(pingID: "shared-\(index)", appid: appid, credited: 10)
                for census in [first, second] {
                    group.addTask { await Self.get("\(census.baseURL)/cgi-bin/gn?\(query)") }
                }
            }
            for try await status in group { #expect(status == 200) }
        }
        // An AMP page view whose requests alternate between the servers.
        let page = AMPPageView(apid: String(appid.dropFirst()), section: "Shared_AMP", clientID: "c", pageViewID: "1")
        for (index, request) in page.requests(base: "", start: 1_700_000_000_000, visibleSeconds: 65).enumerated() {
            let census = index.isMultiple(of: 2) ? first : second
            #expect(await Self.get(census.baseURL + request.url) == 200)
        }
        let rows = try await first.server.store.report(ReportQuery(appid: appid))
        await first.stop()
        await second.stop()
        #expect(rows.map { "\($0.assetid) \($0.creditedSeconds)" }.sorted() == ["Shared_AMP 65", "vid1 2000"])
        let firstStats = await first.server.sinceStart
        let secondStats = await second.server.sinceStart
        #expect(firstStats.stored + secondStats.stored == 200)
        #expect(firstStats.duplicates + secondStats.duplicates == 200)
    }
}
