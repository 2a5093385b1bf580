@testable import CensusHTTP
@testable import CensusPostgres
@testable import CensusSQLite
@testable import CensusStore
@testable import MeterTables
import Foundation
import Hummingbird
import HummingbirdTesting
import MeterDemo
import MeterWire
import SQLKit
import Testing
import NIOFoundationEssentialsCompat

/// Another app's data, whatever session ids and times it chooses, never appears under an app nor
/// displaces its rows, on every list and report route (census-decisions.md S42, S43).
@Suite struct TenantIsolationTests {
    static let victimApid = "0B1E6B8A-3C5D-4E7F-8A9B-00000000000A"
    static let attackerApid = "0B1E6B8A-3C5D-4E7F-8A9B-00000000000B"
    static let victim = "P" + victimApid
    static let attacker = "P" + attackerApid
    /// 1970 and 2100, as a sender may date anything.
    static let extremes: [Int64] = [1, 4_102_444_800]

    struct ListShape: Decodable {
        struct Row: Decodable { let session: String; let appid: String; let lastCall: Double; let calls: Int64; let traced: Bool }
        let sessions: [Row]
    }

    struct PingsShape: Decodable { let pings: [StoredPing] }
    struct StoredShape: Decodable { let entries: [CallTraceEntry]; let stored: [StoredPing] }
    struct RowsShape: Decodable {
        struct Row: Decodable { let appid: String }
        let rows: [Row]
    }

    static func get(_ client: any TestClientProtocol, _ uri: String) async throws -> (HTTPResponse.Status, Data) {
        try await client.execute(uri: uri, method: .get) { ($0.status, Data(buffer: $0.body)) }
    }

    static func trace(_ client: any TestClientProtocol, _ batch: CallTraceBatch) async throws {
        try await client.execute(uri: WireRoute.trace, method: .post, body: ByteBuffer(data: batch.body())) {
            #expect($0.status == .ok, "\(String(buffer: $0.body))")
        }
    }

    static func ampRequest(_ client: any TestClientProtocol, _ page: AMPPageView, at milliseconds: Int64, index: Int) async throws {
        let url = page.cloudAPIURL(base: "", timestamp: milliseconds, requestCount: index, hidden: false)
        try await client.execute(uri: url, method: .get) { #expect($0.status == .ok, "\(String(buffer: $0.body))") }
    }

    static func ping(_ client: any TestClientProtocol, _ query: String) async throws {
        try await client.execute(uri: "/cgi-bin/gn?" + query, method: .get) { #expect($0.status == .ok, "\(String(buffer: $0.body))") }
    }

    /// What an attacker sends under its own app, naming the victim's ids and dating everything
    /// 1970 and 2100, then what the victim sends; the victim's lists, traces and reports then
    /// hold the victim's rows only, all of them.
    @Test(arguments: Backend.available)
    func anotherAppsDataNeverAppearsUnderTheVictim(_ backend: Backend) async throws {
        try await backend.withStore { store in
            let server = CensusServer(store: store)
            try await Application(router: server.router()).test(.router) { client in
                let now = Int64(Date.now.timeIntervalSince1970)
                // The attacker first: the victim's trace session id, its numbers, under its own app.
                try await Self.trace(client, CallTraceBatch(session: "victim-trace", appid: Self.attacker, sdk: "evil", entries: (0..<3).map {
                    CallTraceEntry(seq: $0, time: Double(Self.extremes[$0 % 2]), call: "init", args: ["appname": "Evil"], state: "idle")
                }))
                // Its own AMP page views dated 1970 and 2100, each named as a session of the victim's app by pings.
                var attackerPageViews: [String] = []
                for index in 0..<20 {
                    let page = AMPPageView(apid: Self.attackerApid, section: "Evil", clientID: "evil-\(index)", pageViewID: "1")
                    for (request, time) in Self.extremes.enumerated() { try await Self.ampRequest(client, page, at: time * 1000, index: request + 1) }
                    let key = AMPReplayedPings.key(ofPageView: Self.attackerApid + "/" + page.visit)
                    attackerPageViews.append(key)
                    for time in Self.extremes {
                        try await Self.ping(client, PingQueries.valid(pingID: "\(key)-\(time)", appid: Self.victim, session: key, created: Int(time)))
                    }
                }
                // Pings and viewability under its app, in the victim's viewing session.
                for time in Self.extremes {
                    try await Self.ping(client, PingQueries.valid(pingID: "evil-\(time)", appid: Self.attacker, session: "victim-session", created: Int(time)))
                    try await client.execute(uri: "/cgi-bin/gn/viewability?" + Self.viewabilityQuery(app: Self.attacker, id: "evil-\(time)", created: time),
                                             method: .post, body: ByteBuffer(string: Self.viewabilityBody)) { #expect($0.status == .ok) }
                }

                // The victim: a traced session, an AMP page view and a viewing session of a minute ago.
                let victimEntries = [
                    CallTraceEntry(seq: 0, time: Double(now - 60), call: "init", args: ["appname": "Victim"], state: "idle"),
                    CallTraceEntry(seq: 1, time: Double(now - 59), call: "play", state: "processing"),
                ]
                try await Self.trace(client, CallTraceBatch(session: "victim-trace", appid: Self.victim, sdk: "al.1.0.0", entries: victimEntries))
                let reader = AMPPageView(apid: Self.victimApid, section: "News", clientID: "reader", pageViewID: "1")
                for (index, seconds) in [0, 10, 20].enumerated() {
                    try await Self.ampRequest(client, reader, at: (now - 60 + Int64(seconds)) * 1000, index: index + 1)
                }
                let readerKey = AMPReplayedPings.key(ofPageView: Self.victimApid + "/" + reader.visit)
                try await Self.ping(client, PingQueries.valid(pingID: "mine", appid: Self.victim, session: "victim-session", created: Int(now - 60)))
                try await client.execute(uri: "/cgi-bin/gn/viewability?" + Self.viewabilityQuery(app: Self.victim, id: "mine", created: now - 60),
                                         method: .post, body: ByteBuffer(string: Self.viewabilityBody)) { #expect($0.status == .ok) }

                // The victim's list: its traced session (its own two calls) and its page view; nothing of the attacker's.
                let (status, body) = try await Self.get(client, "/api/v1/sessions?appid=" + Self.victim)
                #expect(status == .ok)
                let own = try JSONDecoder().decode(ListShape.self, from: body).sessions
                #expect(own.allSatisfy { $0.appid == Self.victim })
                #expect(Set(own.map(\.session)).isDisjoint(with: attackerPageViews))
                #expect(own.first { $0.traced }.map { "\($0.session) \($0.calls)" } == "victim-trace 2")
                #expect(own.contains { $0.session == readerKey && !$0.traced })
                // Every app's list: the attacker's rows are its own, dated within 5 minutes of their receipt.
                let all = try JSONDecoder().decode(ListShape.self, from: try await Self.get(client, "/api/v1/sessions").1).sessions
                #expect(all.filter { $0.session == "victim-trace" }.map { "\($0.appid) \($0.calls)" }.sorted()
                        == ["\(Self.victim) 2", "\(Self.attacker) 3"])
                #expect(all.filter { $0.appid == Self.attacker }.allSatisfy { $0.lastCall <= Date.now.timeIntervalSince1970 + Double(SenderClock.ahead) })
                #expect(all.filter { $0.appid == Self.victim }.count == own.count)

                // Its trace, certification and page view: its own entries and pings only.
                let (traceStatus, traceBody) = try await Self.get(client, "/api/v1/sessions/victim-trace/trace?appid=" + Self.victim)
                #expect(traceStatus == .ok)
                #expect(try JSONDecoder().decode(StoredShape.self, from: traceBody).entries == victimEntries)
                #expect(try await Self.get(client, "/api/v1/sessions/victim-trace/trace").0 == .conflict)
                let (certified, certification) = try await Self.get(client, "/api/v1/certification?session=victim-trace&appid=" + Self.victim)
                #expect(certified == .ok)
                #expect(try JSONDecoder().decode(CertificationExportShape.self, from: certification).reports.map(\.appid) == [Self.victim])
                let pageView = try JSONDecoder().decode(StoredShape.self, from: try await Self.get(client, "/api/v1/sessions/\(readerKey)/trace").1)
                #expect(!pageView.stored.isEmpty && pageView.stored.allSatisfy { $0.appid == Self.victim })
                #expect(try await Self.get(client, "/api/v1/sessions/\(attackerPageViews[0])/trace?appid=" + Self.victim).0 == .notFound)

                // A viewing session's pings, and every report: the victim's rows only.
                let pings = try JSONDecoder().decode(PingsShape.self, from: try await Self.get(client, "/api/v1/sessions/victim-session/pings?appid=" + Self.victim).1)
                #expect(pings.pings.map(\.pingID) == ["mine"])
                for route in ["report", "report/dtvr", "report/viewability"] {
                    let (reportStatus, report) = try await Self.get(client, "/api/v1/\(route)?appid=" + Self.victim)
                    #expect(reportStatus == .ok)
                    #expect(try JSONDecoder().decode(RowsShape.self, from: report).rows.allSatisfy { $0.appid == Self.victim }, "\(route)")
                }
                let viewability = try JSONDecoder().decode(RowsShape.self, from: try await Self.get(client, "/api/v1/report/viewability?appid=" + Self.victim).1)
                #expect(viewability.rows.count == 1)
            }
        }
    }

    /// 200 one-call traces and AMP page views dated 2100 under the victim's own app head its lists
    /// for 5 minutes at most: a session of the victim's received after that is listed first.
    @Test(arguments: Backend.available)
    func futureDatedSessionsDoNotPinTheLists(_ backend: Backend) async throws {
        try await backend.withStore { store in
            let received = Int64(Date.now.timeIntervalSince1970 - 3_600) * 1000
            for index in 0..<200 {
                try await store.traces.insert(CallTraceBatch(session: "forged-\(index)", appid: Self.victim, sdk: "evil", entries: [
                    CallTraceEntry(seq: 0, time: 4_102_444_800, call: "init", state: "idle")]), receivedAt: received)
            }
            for index in 0..<5 {
                let body = #"{"type":"static","metadata":{"static":{"section":"S"}},"utc":"4102444800000","index":"1","data":{"hidden":"0"}}"#
                let event = try AMPCloudEvent.parse(apid: Self.victimApid, visit: "forged_\(index)", body: body).get()
                #expect(try await store.amp.recordAMP(event, receivedAt: received).get() != .notCredited)
            }
            let later = received + 600_000
            try await store.traces.insert(CallTraceBatch(session: "real", appid: Self.victim, sdk: "al.1.0.0", entries: [
                CallTraceEntry(seq: 0, time: Double(later / 1000), call: "init", state: "idle")]), receivedAt: later)
            let body = #"{"type":"static","metadata":{"static":{"section":"S"}},"utc":"\#(later)","index":"1","data":{"hidden":"0"}}"#
            _ = try await store.amp.recordAMP(try AMPCloudEvent.parse(apid: Self.victimApid, visit: "real_1", body: body).get(), receivedAt: later)

            let limit = received / 1000 + SenderClock.ahead
            #expect(try await store.traces.traceSessions(appid: Self.victim).first?.session == "real")
            #expect(try await store.traces.traceSessions().first?.session == "real")
            #expect(try await store.traces.traceSessions(appid: Self.victim).dropFirst().allSatisfy { $0.lastCall <= Double(limit) })
            let pageViews = try await store.sessions.ampPageViews(appid: Self.victim)
            #expect(pageViews.first?.session == AMPReplayedPings.key(ofPageView: Self.victimApid + "/real_1"))
            #expect(pageViews.dropFirst().allSatisfy { $0.lastCall <= Double(limit) })
            #expect(try await store.sessions.ampPageViews().first?.session == pageViews.first?.session)
        }
    }

    /// Traces and page views stored before migrations 15 and 16 are keyed by app and listed by
    /// their held times after the upgrade; a trace entry the old key held stays one entry.
    @Test(arguments: Backend.available)
    func storedTracesAndPageViewsAreKeyedByAppAfterTheUpgrade(_ backend: Backend) async throws {
        try await backend.withOpenDatabase { database in
            try await database.withSQL { try await Schema.migrate($0, through: 14) }
            let received = Int64(Date.now.timeIntervalSince1970) * 1000
            let entry = String(decoding: try JSONEncoder().encode(CallTraceEntry(seq: 0, time: 4_102_444_800, call: "init", state: "idle")),
                               as: UTF8.self)
            let body = #"{"type":"static","metadata":{"static":{"section":"S"}},"utc":"4102444800000","index":"1","data":{"hidden":"0"}}"#
            let event = try AMPCloudEvent.parse(apid: Self.victimApid, visit: "old_1", body: body).get()
            try await database.withSQL { db in
                try await db.insert(into: "census_trace")
                    .columns("session", "seq", "appid", "sdk", "received_at", "call_time", "call", "entry", "bytes")
                    .values("old", Int64(0), Self.victim, "al.1", received, 4_102_444_800.0, "init", entry, Int64(100)).run()
                try await db.insert(into: "census_amp_events")
                    .columns("event_id", "page_view", "apid", "visit", "utc_ms", "request_index", "hidden", "body", "received_at")
                    .values("e1", event.pageView, event.apid, event.visit, event.utcMillis, Int64(1), Int64(0), body, received).run()
                try await db.insert(into: "census_amp_page_views").columns("session_id", "ping_ids").values(event.pageViewKey, "").run()
                try await db.insert(into: "census_amp_page_views").columns("session_id", "ping_ids").values("amp-gone", "").run()
                try await Schema.migrate(db)
            }
            let store = PingStore(database: database)
            let traced = try await store.traces.traceSessions(appid: Self.victim)
            #expect(traced.map(\.session) == ["old"])
            #expect(traced.first?.lastCall == Double(received / 1000 + SenderClock.ahead))
            #expect(try await store.traces.trace(session: "old", appid: Self.victim).map(\.time) == [4_102_444_800])
            #expect(try await store.traces.insert(CallTraceBatch(session: "old", appid: Self.victim, sdk: "al.1", entries: [
                CallTraceEntry(seq: 0, time: 1, call: "init", state: "idle")]), receivedAt: received) == 0)
            #expect(try await store.traces.insert(CallTraceBatch(session: "old", appid: Self.attacker, sdk: "al.1", entries: [
                CallTraceEntry(seq: 0, time: 1, call: "init", state: "idle")]), receivedAt: received) == 1)
            let pageViews = try await store.sessions.ampPageViews()
            #expect(pageViews.map { "\($0.session) \($0.appid) \(Int64($0.lastCall))" }
                    == ["\(event.pageViewKey) \(Self.victim) \(received / 1000 + SenderClock.ahead)"])
        }
    }

    static let viewabilityBody = #"{"invs":[[100,0,1700000000,39]]}"#

    static func viewabilityQuery(app: String, id: String, created: Int64) -> String {
        "prd=dcr&c13=asid,\(app)&ai=vid1&c3=st,c&c59=sesid,victim-session&c61=createtm,\(created)&uoo=&pingid=\(id)"
    }
}
