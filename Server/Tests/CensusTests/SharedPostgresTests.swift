import AppMeter
import CensusHTTP
import CensusStore
import MeterTables
import Foundation
import MeterDemo
import Testing

/// Two census servers on one PostgreSQL (docs/performance.md "Scaling out"): a ping retried to
/// the other server, and an AMP page view whose requests land on both, are credited once.
@Suite(.enabled(if: Backend.postgresURL != nil, "needs APPMETER_TEST_POSTGRES_URL"))
struct SharedPostgresTests {
    static let transport = URLSessionTransport(timeout: 30)

    /// GETs `url`; a request that got no answer is sent again, as the SDK retries: this test is
    /// about crediting once, not about latency (under the thread sanitizer, on a loaded machine,
    /// 400 requests at once took over 10 s to be answered and CI failed on it).
    static func get(_ url: String) async -> Int {
        for _ in 0..<5 {
            if case .response(let status, _, _) = await transport.send(TransportRequest(url: URL(string: url)!)) {
                return status
            }
        }
        return 0
    }

    @Test func twoServersCreditEachPingOnce() async throws {
        try await Backend.postgres.withFreshDatabase { database in
            let first = try await RunningCensus.start(database: database)
            let second = try await RunningCensus.start(database: database)
            let appid = "P" + UUID().uuidString
            // 200 pings, each delivered to both servers at once (a retry after a lost answer), 20 pings
            // (40 requests) in flight at a time.
            for chunk in stride(from: 0, to: 200, by: 20) {
                try await withThrowingTaskGroup(of: Int.self) { group in
                    for index in chunk..<(chunk + 20) {
                        let query = PingQueries.valid(pingID: "shared-\(index)", appid: appid, credited: 10)
                        for census in [first, second] {
                            group.addTask { await Self.get("\(census.baseURL)/cgi-bin/gn?\(query)") }
                        }
                    }
                    for try await status in group { #expect(status == 200) }
                }
            }
            // An AMP page view whose requests alternate between the servers.
            let page = AMPPageView(apid: String(appid.dropFirst()), section: "Shared_AMP", clientID: "c", pageViewID: "1")
            for (index, request) in page.requests(base: "", start: (Int64(Date.now.timeIntervalSince1970) - 3_600) * 1000, visibleSeconds: 65).enumerated() {
                let census = index.isMultiple(of: 2) ? first : second
                #expect(await Self.get(census.baseURL + request.url) == 200)
            }
            let rows = try await first.server.store.reports.report(ReportQuery(appid: appid))
            await first.stop()
            await second.stop()
            #expect(rows.map { "\($0.assetid) \($0.creditedSeconds)" }.sorted() == ["Shared_AMP 65", "vid1 2000"])
            let firstStats = first.server.sinceStart
            let secondStats = second.server.sinceStart
            #expect(firstStats.stored + secondStats.stored == 200)
            // At least one answer per ping says duplicate (more if a request was sent again after a timeout).
            #expect(firstStats.duplicates + secondStats.duplicates >= 200)
        }
    }
}
