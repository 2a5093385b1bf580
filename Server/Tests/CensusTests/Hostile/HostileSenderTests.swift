@testable import CensusHTTP
@testable import CensusPostgres
@testable import CensusSQLite
@testable import CensusStore
@testable import MeterTables
import Foundation
import Hummingbird
import HummingbirdTesting
import MeterWire
import Testing

/// What a stranger on the internet can send to the open ingest routes, and what the census does
/// with it (issue "The census holds against a hostile internet"): nothing displaces, inflates or
/// is half-stored.
@Suite struct HostileSenderTests {
    static let appA = "P00000000-0000-4000-8000-00000000000A"
    static let appB = "P00000000-0000-4000-8000-00000000000B"

    func withApp(_ backend: Backend = .sqlite, policy: CensusPolicy = .standard,
                 _ body: @escaping @Sendable (any TestClientProtocol, CensusServer) async throws -> Void) async throws {
        try await backend.withStore { store in
            let server = CensusServer(store: store, policy: policy)
            try await Application(router: server.router()).test(.router) { client in try await body(client, server) }
        }
    }

    static func get(_ client: any TestClientProtocol, _ query: String) async throws -> (HTTPResponse.Status, String) {
        try await client.execute(uri: "/cgi-bin/gn?" + query, method: .get) { ($0.status, String(buffer: $0.body)) }
    }

    /// Another sender's ping id first does not make the real app's ping a duplicate.
    @Test(arguments: Backend.available)
    func aPingIDTakenByAnotherAppDisplacesNothing(_ backend: Backend) async throws {
        try await withApp(backend) { client, server in
            for (appid, expected) in [(Self.appB, "stored\n"), (Self.appA, "stored\n"), (Self.appA, "duplicate\n")] {
                let query = PingQueries.valid(pingID: "p-1", appid: appid, credited: appid == Self.appA ? 30 : 0)
                var answer = try await Self.get(client, query)
                // Retried as an SDK retries a 503: at the start of a full run on two cores, a
                // write can wait past the census's 5 s bound (census-decisions.md S47), and then
                // "stored" may come back as "duplicate" (the write was done after all).
                var retried = false
                for _ in 0..<3 where answer.0 == .serviceUnavailable {
                    retried = true
                    answer = try await Self.get(client, query)
                }
                #expect(answer == (.ok, expected) || (retried && expected == "stored\n" && answer == (.ok, "duplicate\n")),
                        "\(appid): \(answer)")
            }
            let credit = try await server.store.reports.report(ReportQuery(appid: Self.appA)).map(\.creditedSeconds)
            #expect(credit == [30])
            #expect(try await server.store.sessions.pings(session: "s1").map { "\($0.appid) \($0.pingID)" }.sorted()
                    == ["\(Self.appA) p-1", "\(Self.appB) p-1"])
        }
    }

    /// An escaped `c13` in front of the real one cannot credit another app: refused, nothing stored.
    @Test func anEscapedParameterNameCannotStandForAnother() async throws {
        try await withApp { client, server in
            let query = "%63%31%33=asid,\(Self.appB)&" + PingQueries.valid(pingID: "e-1", appid: Self.appA)
            let (status, body) = try await Self.get(client, query)
            #expect(status == .badRequest)
            #expect(body == "parameter c13 appears twice with different values\n")
            #expect(try await server.store.counts() == (0, 1))
        }
    }

    /// Twenty pings of one session within two seconds, each claiming a day: each is held to one
    /// duration-ping interval, the rest stored as over bound, and the session is flagged.
    @Test(arguments: Backend.available)
    func inflatedPingsAreHeldToTheirBoundAndTheSessionFlagged(_ backend: Backend) async throws {
        try await withApp(backend) { client, server in
            // A minute ago: a creation time is read within 31 days of the receipt (census-decisions.md S42).
            let created = Int(Date.now.timeIntervalSince1970) - 60
            for index in 0..<20 {
                let query = PingQueries.valid(pingID: "i-\(index)", appid: Self.appA, credited: 86_400, session: "inflated",
                                              created: created + index / 10)
                #expect(try await Self.get(client, query).0 == .ok)
            }
            let rows = try await server.store.reports.report(ReportQuery(appid: Self.appA))
            #expect(rows.map(\.creditedSeconds) == [20 * 76])
            #expect(rows.map(\.overBoundSeconds) == [20 * (86_400 - 76)])
            let plausibility = try await server.store.reports.plausibility(ReportQuery(appid: Self.appA))
            #expect(plausibility.map(\.flaggedSessions) == [1])
            // The session spans a second at most, by creation and by receipt.
            let flagged = plausibility.first?.flaggedSeconds ?? 0
            #expect((20 * 76 - 1 - 76 - SessionPlausibility.tolerance)...(20 * 76 - 76 - SessionPlausibility.tolerance) ~= flagged)
            // An operator may leave flagged sessions out of the report.
            #expect(try await server.store.reports.report(ReportQuery(appid: Self.appA, excludeFlagged: true)).isEmpty)
        }
    }

    /// An honest session, its pings a minute apart in creation and receipt, is not flagged.
    @Test func anHonestSessionIsNotFlagged() async throws {
        try await Backend.sqlite.withStore { store in
            for index in 0..<5 {
                let query = PingQueries.valid(pingID: "h-\(index)", appid: Self.appA, credited: 60, session: "honest",
                                              created: 1_700_000_000 + index * 60)
                var ping = try PingValidator.validate(query: Substring(query), uriLength: 200).get()
                CreditBounds.apply(to: &ping, interval: 60, receivedAt: 1_700_000_000)
                _ = try await store.insert([ping], receivedAt: Int64(1_700_000_000 + index * 60) * 1000)
            }
            let plausibility = try await store.reports.plausibility(ReportQuery())
            #expect(plausibility.map(\.flaggedSessions) == [0])
            #expect(plausibility.map(\.creditedSeconds) == [300])
            #expect(try await store.reports.report(ReportQuery(excludeFlagged: true)).map(\.creditedSeconds) == [300])
        }
    }

    /// A batch framed with CR alone, or with bytes that are not UTF-8, is refused whole with the
    /// line; nothing of it is stored.
    @Test(arguments: [
        (Array((PingQueries.valid(pingID: "b-1") + "\r" + PingQueries.valid(pingID: "b-2")).utf8), "batch line 1 has a carriage return"),
        (Array((PingQueries.valid(pingID: "b-1") + "\n").utf8) + Array("prd=dcr&tl=".utf8) + [0xFF], "batch line 2 is not UTF-8"),
    ] as [([UInt8], String)])
    func aBadlyFramedBatchStoresNothing(_ body: [UInt8], _ reason: String) async throws {
        try await withApp { client, server in
            try await client.execute(uri: WireRoute.batch, method: .post, body: ByteBuffer(bytes: body)) { response in
                #expect(response.status == .badRequest)
                #expect(String(buffer: response.body).hasPrefix(reason), "\(String(buffer: response.body))")
            }
            #expect(try await server.store.counts().pings == 0)
        }
    }

    /// A viewability report claiming days of viewable time is held to one interval.
    @Test func viewabilityIsHeldToOneInterval() async throws {
        try await withApp { client, server in
            let item = "[100,0,1700000000,86400]"
            let body = #"{"invs":["# + Array(repeating: item, count: 50).joined(separator: ",") + #"],"inau":[[50,0,1700000000,86400]]}"#
            let query = "prd=dcr&c13=asid,\(Self.appA)&ai=v&c59=sesid,s&c61=createtm,1700000060&pingid=v-1"
            try await client.execute(uri: WireRoute.viewability + "?" + query, method: .post, body: ByteBuffer(string: body)) { response in
                #expect(response.status == .ok)
            }
            let rows = try await server.store.viewability.viewabilityReport(ReportQuery())
            #expect(rows.map { "\($0.measuredSeconds) \($0.viewableSeconds) \($0.audibleSeconds) \($0.overBoundSeconds)" }
                    == ["76 76 76 \(50 * 86_400 - 76)"])
        }
    }

    /// Only registered apps, when the operator asks for it: others are refused (403) and their
    /// config says not to measure.
    @Test func registeredAppsOnly() async throws {
        var policy = CensusPolicy()
        policy.registeredAppsOnly = true
        try await withApp(policy: policy) { client, server in
            let (status, body) = try await Self.get(client, PingQueries.valid(pingID: "r-1", appid: Self.appA))
            #expect(status == .forbidden)
            #expect(body.contains("not registered"))
            try await client.execute(uri: WireRoute.config + "?apid=\(Self.appA)", method: .get) { response in
                #expect(String(buffer: response.body).contains(#""enabled":false"#))
            }
            try await server.store.apps.setSettings(AppSettings(enabled: true, durationPingInterval: 60), for: Self.appA)
            await server.maintain()
            #expect(try await Self.get(client, PingQueries.valid(pingID: "r-1", appid: Self.appA)).0 == .ok)
        }
    }
}
