import CensusHTTP
import CensusStore
import MeterTables
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import NIOFoundationEssentialsCompat
import MeterContract

@Suite struct CensusRouteTests {
    func withApp(_ backend: Backend, _ body: @escaping @Sendable (any TestClientProtocol, CensusServer) async throws -> Void) async throws {
        try await backend.withStore { store in
            let server = CensusServer(store: store)
            let app = Application(router: server.router())
            try await app.test(.router) { client in try await body(client, server) }
        }
    }

    @Test(arguments: Backend.available)
    func pingsAreStoredOnceAndDuplicatesAcknowledged(_ backend: Backend) async throws {
        try await withApp(backend) { client, server in
            let uri = "/cgi-bin/gn?" + PingQueries.valid(pingID: "dup-1")
            try await client.execute(uri: uri, method: .get) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body) == "stored\n")
            }
            try await client.execute(uri: uri, method: .get) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body) == "duplicate\n")
            }
            #expect(try await server.store.counts() == (1, 0))
            #expect(server.sinceStart.duplicates == 1)
        }
    }

    /// The example pings printed in the Ireland guides (iOS and Android SDK 8.1), exactly as
    /// published: no `pingid`. Each is stored, a re-delivery (new `c62`/`rnd`) is credited once,
    /// and the shared classification makes the iOS one an ad and the Android one content.
    @Test(arguments: Backend.available)
    func theOriginalSDKsExamplePingsAreTakenAndCreditedOnce(_ backend: Backend) async throws {
        try await withApp(backend) { client, server in
            for (example, resent) in [(GuideExamplePings.iOS, true), (GuideExamplePings.android, false)] {
                let query = String(example.split(separator: "?", maxSplits: 1)[1])
                try await client.execute(uri: "/cgi-bin/gn?" + query, method: .get) { response in
                    #expect(response.status == .ok)
                    #expect(String(buffer: response.body) == "stored\n")
                }
                guard resent else { continue }
                let again = query.replacingOccurrences(of: "rnd=1629966255319", with: "rnd=1629966299000")
                    .replacingOccurrences(of: "sendTime,1629966255", with: "sendTime,1629966299")
                try await client.execute(uri: "/cgi-bin/gn?" + again, method: .get) { response in
                    #expect(String(buffer: response.body) == "duplicate\n")
                }
            }
            let rows = try await server.store.reports.report(ReportQuery())
            #expect(rows.map { "\($0.assetid) \($0.kind.rawValue) \($0.creditedSeconds)" }.sorted()
                    == ["218531 content 34", "51HERB1501 ad 15"])
            // Held to the bounds of docs/census.md §4b, they lose nothing and are not flagged.
            #expect(rows.allSatisfy { $0.overBoundSeconds == 0 })
            #expect(try await server.store.reports.plausibility(ReportQuery()).allSatisfy { $0.flaggedSessions == 0 })
        }
    }

    @Test(arguments: Backend.available)
    func aPingWithAnEmptyAssetIDIsStoredAndReported(_ backend: Backend) async throws {
        try await withApp(backend) { client, server in
            let uri = "/cgi-bin/gn?" + PingQueries.valid(pingID: "no-asset", asset: "")
            try await client.execute(uri: uri, method: .get) { response in
                #expect(response.status == .ok)
            }
            let rows = try await server.store.reports.report(ReportQuery())
            #expect(rows.map(\.assetid) == [""])
            #expect(rows.first?.creditedSeconds == 10)
        }
    }

    @Test(arguments: Backend.available)
    func malformedPingsGet400WithTheReasonAndAreRecorded(_ backend: Backend) async throws {
        try await withApp(backend) { client, server in
            let bad = PingQueries.valid(pingID: "x").replacingOccurrences(of: "cln,10", with: "cln,ten")
            try await client.execute(uri: "/cgi-bin/gn?" + bad, method: .get) { response in
                #expect(response.status == .badRequest)
                #expect(String(buffer: response.body).contains("c27 is \"ten\""))
            }
            let huge = "/cgi-bin/gn?" + PingQueries.valid(pingID: "y") + "&tl=" + String(repeating: "a", count: 9000)
            try await client.execute(uri: huge, method: .get) { response in
                #expect(response.status == .badRequest)
            }
            #expect(try await server.store.counts() == (0, 2))
            #expect(try await server.store.rejectReasons().first?.contains("c27") == true)
        }
    }

    /// PostgreSQL's text cannot hold NUL: a ping carrying one (escaped, raw in a batch line, or in
    /// a malformed name quoted by the reason) is refused with a reason, and neither fails the
    /// batch it was committed with nor the record of its refusal.
    @Test(arguments: Backend.available)
    func aNULAnywhereIsRefusedWithoutBreakingTheCommitItShares(_ backend: Backend) async throws {
        try await withApp(backend) { client, server in
            let escaped = PingQueries.valid(pingID: "nul-1").replacingOccurrences(of: "ai=", with: "ai=a%00b")
            try await client.execute(uri: "/cgi-bin/gn?" + escaped, method: .get) { response in
                #expect(response.status == .badRequest)
                #expect(String(buffer: response.body).contains("NUL"))
            }
            try await client.execute(uri: "/cgi-bin/gn?" + PingQueries.valid(pingID: "nul-2") + "&x%00y=%G1", method: .get) {
                #expect($0.status == .badRequest)
            }
            let body = [PingQueries.valid(pingID: "nul-3") + "&tl=a\u{0}b", PingQueries.valid(pingID: "nul-4")]
                .joined(separator: "\n")
            try await client.execute(uri: "/cgi-bin/gn/batch", method: .post, body: ByteBuffer(string: body)) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body).contains(#""stored":1"#))
            }
            #expect(try await server.store.counts() == (1, 3))
            #expect(try await server.store.traces.pings(ids: ["nul-4"], appid: "P00000000-0000-4000-8000-000000000001").count == 1)
        }
    }

    @Test(arguments: Backend.available)
    func configHandshakeCarriesTheKillSwitch(_ backend: Backend) async throws {
        try await withApp(backend) { client, server in
            let appid = "P00000000-0000-4000-8000-0000000000AA"
            try await client.execute(uri: "/cgi-bin/cfg?apid=\(appid)&sdkv=al.1.0.0", method: .get) { response in
                #expect(response.status == .ok)
                let config = try JSONDecoder().decode(AppSettings.self, from: Data(buffer: response.body))
                #expect(config == .standard)
            }
            try await server.store.apps.setSettings(AppSettings(enabled: false, durationPingInterval: 30), for: appid)
            try await client.execute(uri: "/cgi-bin/cfg?apid=\(appid)", method: .get) { response in
                let config = try JSONDecoder().decode(AppSettings.self, from: Data(buffer: response.body))
                #expect(config == AppSettings(enabled: false, durationPingInterval: 30))
            }
            try await client.execute(uri: "/cgi-bin/cfg", method: .get) { response in
                #expect(response.status == .badRequest)
            }
        }
    }

    /// `updateOTT`'s `c71`/`c72` reach the report: seconds played on an OTT device.
    @Test(arguments: Backend.available)
    func secondsOnAnOTTDeviceAreReported(_ backend: Backend) async throws {
        try await withApp(backend) { client, server in
            let pings = [
                PingQueries.valid(pingID: "o1", credited: 30) + "&c71=ottflg,0&c72=otttyp,",
                PingQueries.valid(pingID: "o2", credited: 20) + "&c71=ottflg,1&c72=otttyp,airplay",
                PingQueries.valid(pingID: "o3", credited: 5) + "&c71=ottflg,1&c72=otttyp,",
            ]
            for ping in pings {
                try await client.execute(uri: "/cgi-bin/gn?" + ping, method: .get) { #expect($0.status == .ok) }
            }
            let rows = try await server.store.reports.report(ReportQuery())
            #expect(rows.map { "\($0.creditedSeconds) \($0.ottSeconds)" } == ["55 25"])
        }
    }

    @Test(arguments: Backend.available)
    func reportAndSessionAPIs(_ backend: Backend) async throws {
        try await withApp(backend) { client, _ in
            // A day ago: the census dates a ping within 31 days of its receipt (census-decisions.md S42).
            let base = Int(Date.now.timeIntervalSince1970) - 86_400
            let pings = [
                PingQueries.valid(pingID: "a1", at: "view", credited: 0, session: "s1", device: "d1", created: base),
                PingQueries.valid(pingID: "a2", credited: 60, session: "s1", device: "d1", created: base + 60),
                PingQueries.valid(pingID: "a3", at: "view", credited: 0, session: "s2", device: "d2", optedOut: true, created: base),
                PingQueries.valid(pingID: "a4", credited: 30, session: "s2", device: "d2", optedOut: true, created: base + 1_000),
                PingQueries.valid(pingID: "b1", asset: "ad1", kind: "st,a", credited: 15, session: "s1", created: base),
            ]
            for ping in pings {
                try await client.execute(uri: "/cgi-bin/gn?" + ping, method: .get) { #expect($0.status == .ok) }
            }
            try await client.execute(uri: "/api/v1/report?appid=P00000000-0000-4000-8000-000000000001", method: .get) { response in
                struct Body: Decodable { let rows: [CreditRow] }
                let rows = try JSONDecoder().decode(Body.self, from: Data(buffer: response.body)).rows
                #expect(rows.count == 2)
                let content = try #require(rows.first { $0.kind == .content })
                #expect(content.views == 2)
                #expect(content.creditedSeconds == 90)
                #expect(content.devices == 2)
                #expect(content.sessions == 2)
                #expect(content.optedOutShare == 0.5)
                let ad = try #require(rows.first { $0.kind == .ad })
                #expect(ad.creditedSeconds == 15)
                #expect(ad.devices == 0)
            }
            try await client.execute(uri: "/api/v1/report?from=\(base + 50)&to=\(base + 100)", method: .get) { response in
                struct Body: Decodable { let rows: [CreditRow] }
                let rows = try JSONDecoder().decode(Body.self, from: Data(buffer: response.body)).rows
                #expect(rows.map(\.creditedSeconds) == [60])
            }
            try await client.execute(uri: "/api/v1/report?from=yesterday", method: .get) { #expect($0.status == .badRequest) }
            try await client.execute(uri: "/api/v1/sessions/s1/pings", method: .get) { response in
                struct Body: Decodable { let pings: [StoredPing] }
                let stored = try JSONDecoder().decode(Body.self, from: Data(buffer: response.body)).pings
                #expect(stored.map(\.pingID) == ["a1", "b1", "a2"])
                #expect(stored.first?.rawQuery.hasPrefix("prd=dcr&") == true)
            }
            try await client.execute(uri: "/healthz", method: .get) { #expect($0.status == .ok) }
            try await client.execute(uri: "/readyz", method: .get) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body) == "ready\n")
            }
        }
    }

    /// A census whose database is gone is alive but not ready, and says why.
    @Test func aCensusWithoutItsDatabaseIsNotReady() async throws {
        try await withApp(.sqlite) { client, server in
            await server.store.database.close()
            try await client.execute(uri: "/readyz", method: .get) { response in
                #expect(response.status == .serviceUnavailable)
                #expect(String(buffer: response.body).hasPrefix("not ready: the database does not answer"))
            }
            try await client.execute(uri: "/healthz", method: .get) { #expect($0.status == .ok) }
        }
    }

    /// A ping the store cannot take is answered `503` with `Retry-After` on the fast path and through
    /// the router alike (census-decisions.md S47): every SDK retries it.
    @Test func aStorageFailureAsksForARetryLater() async throws {
        try await Backend.sqlite.withStore { store in
            let server = CensusServer(store: store)
            await store.database.close()
            let check: @Sendable (any TestClientProtocol, String) async throws -> Void = { client, id in
                try await client.execute(uri: "/cgi-bin/gn?" + PingQueries.valid(pingID: id), method: .get) { response in
                    #expect(response.status == .serviceUnavailable)
                    #expect(response.headers[.retryAfter] == "5")
                    #expect(String(buffer: response.body) == "storage unavailable; retry later\n")
                }
            }
            // The fast path (a live server's pipeline) and the router's route.
            try await server.application(host: "127.0.0.1", port: 0).test(.live) { try await check($0, "r-fast") }
            try await Application(router: server.router()).test(.router) { try await check($0, "r-router") }
        }
    }

    @Test(arguments: Backend.available)
    func batchesStoreEachLineOnceAndReportRefusedLines(_ backend: Backend) async throws {
        try await withApp(backend) { client, server in
            let body = [
                PingQueries.valid(pingID: "b-1"), PingQueries.valid(pingID: "b-2"),
                PingQueries.valid(pingID: "b-3").replacingOccurrences(of: "cln,10", with: "cln,oops"),
                PingQueries.valid(pingID: "b-1"),
            ].joined(separator: "\n")
            try await client.execute(uri: "/cgi-bin/gn/batch", method: .post, body: ByteBuffer(string: body)) { response in
                #expect(response.status == .ok)
                struct Answer: Decodable, Equatable {
                    struct Rejection: Decodable, Equatable { let line: Int; let reason: String }
                    let stored: Int; let duplicates: Int; let rejected: [Rejection]
                }
                let answer = try JSONDecoder().decode(Answer.self, from: Data(buffer: response.body))
                #expect(answer == Answer(stored: 2, duplicates: 1, rejected: [.init(line: 3, reason: "c27 is \"oops\", not a whole number of seconds")]))
            }
            // A retried batch is credited once.
            try await client.execute(uri: "/cgi-bin/gn/batch", method: .post, body: ByteBuffer(string: body)) { response in
                #expect(response.status == .ok)
            }
            #expect(try await server.store.counts() == (2, 2))
            let rows = try await server.store.reports.report(ReportQuery())
            #expect(rows.map(\.creditedSeconds) == [20])
            try await client.execute(uri: "/cgi-bin/gn/batch", method: .post, body: ByteBuffer(string: "")) {
                #expect($0.status == .badRequest)
            }
            let huge = String(repeating: PingQueries.valid(pingID: "h") + "\n", count: 2000)
            try await client.execute(uri: "/cgi-bin/gn/batch", method: .post, body: ByteBuffer(string: huge)) {
                #expect($0.status == .contentTooLarge)
            }
        }
    }

    @Test(arguments: Backend.available)
    func migrationsAreIdempotent(_ backend: Backend) async throws {
        try await backend.withStore { store in
            try await store.migrate()
            try await store.migrate()
            #expect(try await store.counts() == (0, 0))
        }
    }
}
