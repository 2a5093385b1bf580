@testable import CensusHTTP
@testable import CensusPostgres
@testable import CensusSQLite
@testable import CensusStore
@testable import MeterTables
import Foundation
import Hummingbird
import HummingbirdTesting
import MeterWire
import SQLKit
import Testing
import NIOFoundationEssentialsCompat

/// Rejects and traces within their quotas, budget and retention; AMP events stored only whole.
@Suite struct BoundedStorageTests {
    static let appA = HostileSenderTests.appA

    func withApp(policy: CensusPolicy = .standard, _ body: @escaping @Sendable (any TestClientProtocol, CensusServer) async throws -> Void) async throws {
        try await Backend.sqlite.withStore { store in
            let server = CensusServer(store: store, policy: policy)
            try await Application(router: server.router()).test(.router) { client in try await body(client, server) }
        }
    }

    /// Past an app's quota, refusals are still answered 400 with their reason, but not recorded.
    @Test func rejectsStopAtTheirAppsQuota() async throws {
        var policy = CensusPolicy()
        policy.storage.rejectBytesPerApp = 2_000
        try await withApp(policy: policy) { client, server in
            for index in 0..<40 {
                let query = PingQueries.valid(pingID: "q-\(index)", appid: Self.appA).replacingOccurrences(of: "at=timer", with: "at=junk")
                #expect(try await HostileSenderTests.get(client, query).0 == .badRequest)
            }
            let recorded = try await server.store.counts().rejects
            #expect(recorded > 0 && recorded < 40)
            #expect(server.sinceStart.rejectsNotRecorded == 40 - Int(recorded))
            // Another app's refusals still have room: the quota is per app.
            let other = PingQueries.valid(pingID: "o", appid: HostileSenderTests.appB).replacingOccurrences(of: "at=timer", with: "at=junk")
            _ = try await HostileSenderTests.get(client, other)
            #expect(try await server.store.counts().rejects == recorded + 1)
        }
    }

    /// Past the traces' budget a batch is answered 503 with `Retry-After`; past a session's
    /// entries, 413 with the reason.
    @Test func tracesStopAtTheirBudgetAndASessionsCap() async throws {
        var policy = CensusPolicy()
        policy.storage.traceEntriesPerSession = 5
        policy.storage.traceBytes = 20_000
        try await withApp(policy: policy) { client, _ in
            func post(_ session: String, _ entries: Int, from first: Int = 0) async throws -> (HTTPResponse.Status, String, String?) {
                let batch = CallTraceBatch(session: session, appid: Self.appA, sdk: "al.1", entries: (first..<first + entries).map {
                    CallTraceEntry(seq: $0, time: 1_700_000_000 + Double($0), call: "playheadPosition", args: ["position": "\($0)"], state: "playing")
                })
                return try await client.execute(uri: WireRoute.trace, method: .post, body: ByteBuffer(data: batch.body())) {
                    ($0.status, String(buffer: $0.body), $0.headers[.retryAfter])
                }
            }
            #expect(try await post("s-1", 4).0 == .ok)
            let (status, reason, _) = try await post("s-1", 2, from: 4)
            #expect(status == .contentTooLarge)
            #expect(reason.contains("at most 5 per session"))
            var answers: [(HTTPResponse.Status, String?)] = []
            for index in 0..<40 {
                let (status, _, retry) = try await post("s-\(index + 2)", 5)
                answers.append((status, retry))
            }
            #expect(answers.contains { $0.0 == .serviceUnavailable && $0.1 == "600" })
            #expect(answers.first?.0 == .ok)
        }
    }

    /// Rejects and traces past their retention are pruned while the census serves; pings are not.
    @Test func retentionPrunesRejectsAndTracesButNotPings() async throws {
        try await withApp { client, server in
            let old = Date.now.addingTimeInterval(-8 * 86_400)
            try await server.store.recordReject(reason: "old", rawRequest: "/x", receivedAt: Int64(old.timeIntervalSince1970 * 1000))
            _ = try await server.store.traces.insert(CallTraceBatch(session: "old", appid: Self.appA, sdk: "al.1", entries: [
                CallTraceEntry(seq: 0, time: 1, call: "play", state: "idle")]), receivedAt: Int64(old.timeIntervalSince1970 * 1000))
            #expect(try await HostileSenderTests.get(client, PingQueries.valid(pingID: "keep")).0 == .ok)
            _ = try await HostileSenderTests.get(client, "prd=junk")
            await server.maintain()
            #expect(try await server.store.rejectReasons().count == 1)
            #expect(try await server.store.traces.trace(session: "old", appid: Self.appA).isEmpty)
            #expect(try await server.store.counts().pings == 1)
        }
    }

    /// An AMP request the replay refuses (a NUL in `b=`, a broken event) stores nothing, and the
    /// page view's next requests are taken as if it never came.
    @Test func aRefusedAMPEventDoesNotPoisonItsPageView() async throws {
        try await withApp { client, server in
            let apid = "0B1E6B8A-3C5D-4E7F-8A9B-0C1D2E3F4A5B"
            func event(_ utc: Int64, section: String = "S", extra: String = "") -> String {
                let body = #"{"type":"static","metadata":{"static":{"type":"static","section":"\#(section)","assetid":"1"}},"event":"playhead","utc":\#(utc)\#(extra)}"#
                return "/nmapi/v2/\(apid)/c_1/a?b=" + WireEncoding.encode(body)
            }
            try await client.execute(uri: event(1_700_000_000_000, extra: #","x":"a\u0000b""#), method: .get) { response in
                #expect(response.status == .badRequest)
                #expect(String(buffer: response.body).contains("NUL"))
            }
            let stored = try await server.store.database.withSQL { db in
                try await db.select().column(SQLRaw("COUNT(*)"), as: "n").from("census_amp_events").first()?.decode(column: "n", as: Int64.self)
            }
            #expect(stored == 0)
            for utc in stride(from: Int64(1_700_000_000_000), through: 1_700_000_030_000, by: 10_000) {
                try await client.execute(uri: event(utc), method: .get) { #expect($0.status == .ok) }
            }
        }
    }

    /// An AMP page view whose requests claim a day between them credits no more than its
    /// requests can carry: the rest is over bound.
    @Test func anAMPPageViewCreditsAtMostItsRequestsPeriods() async throws {
        try await withApp { client, server in
            let apid = "0B1E6B8A-3C5D-4E7F-8A9B-0C1D2E3F4A5B"
            // Within the window the census reads `utc` in (census-decisions.md S42): two hours ago, then 28 minutes apart.
            let start = (Int64(Date.now.timeIntervalSince1970) - 7_200) * 1000
            for (index, utc) in [start, start + 1_700_000, start + 3_400_000].enumerated() {
                let body = #"{"type":"static","metadata":{"static":{"type":"static","section":"S","assetid":"1"}},"event":"playhead","utc":\#(utc),"index":\#(index)}"#
                try await client.execute(uri: "/nmapi/v2/\(apid)/c_2/a?b=" + WireEncoding.encode(body), method: .get) {
                    #expect($0.status == .ok)
                }
            }
            let rows = try await server.store.reports.report(ReportQuery(appid: "P" + apid))
            #expect(rows.reduce(0) { $0 + $1.creditedSeconds } <= 3 * (AMPPageViewReplay.timerSeconds + 2))
            #expect(rows.reduce(0) { $0 + $1.overBoundSeconds } > 0)
        }
    }
}
