import CensusHTTP
import CensusStore
import MeterTables
import Foundation
import Hummingbird
import HummingbirdTesting
import MeterDemo
import MeterWire
import Testing

/// Google AMP at the census (the AMP guide): the requests the vendor file
/// builds for one page view, credited as static time by replaying them through the engine.
@Suite struct AMPCloudAPITests {
    static let apid = "0B1E6B8A-3C5D-4E7F-8A9B-0C1D2E3F4A5B"
    /// An hour ago, in milliseconds: the census reads a request's `utc` within 31 days of its
    /// receipt (census-decisions.md S42), as a page sends it.
    static let start = (Int64(Date.now.timeIntervalSince1970) - 3_600) * 1000

    func withApp(_ backend: Backend, _ body: @escaping @Sendable (any TestClientProtocol, CensusServer) async throws -> Void) async throws {
        try await backend.withStore { store in
            let server = CensusServer(store: store)
            try await Application(router: server.router()).test(.router) { client in try await body(client, server) }
        }
    }

    static func path(_ url: String) -> String {
        String(url.dropFirst("http://census".count))
    }

    static func staticRows(_ server: CensusServer, appid: String = "P" + apid) async throws -> [String: Int64] {
        try await server.store.reports.report(ReportQuery(appid: appid)).filter { $0.kind == .static }
            .reduce(into: [:]) { $0[$1.assetid] = $1.creditedSeconds }
    }

    /// Visible, six timer requests, hidden: 65 seconds of static time for the page's section.
    @Test(arguments: Backend.available)
    func aPageViewIsCreditedAsStaticTime(_ backend: Backend) async throws {
        try await withApp(backend) { client, server in
            let page = AMPPageView(apid: Self.apid, section: "EntityName_AMP", clientID: "amp-client-1", pageViewID: "4321")
            let requests = page.requests(base: "http://census", start: Self.start, visibleSeconds: 65)
            #expect(requests.count == 9)
            for request in requests {
                try await client.execute(uri: Self.path(request.url), method: .get) { response in
                    #expect(response.status == .ok, "\(String(buffer: response.body))")
                }
            }
            #expect(try await Self.staticRows(server) == ["EntityName_AMP": 65])
            let stats = server.sinceStart
            #expect(stats.ampEvents == 8 && stats.ampSessions == 1 && stats.rejected == 0)
            let session = try await server.store.reports.report(ReportQuery(appid: "P" + Self.apid)).first
            #expect(session?.views == 1 && session?.devices == 1)
        }
    }

    /// The same requests again (a retry) or in another order credit the page view once.
    @Test(arguments: Backend.available)
    func retriesAndDisorderCreditOnce(_ backend: Backend) async throws {
        try await withApp(backend) { client, server in
            let page = AMPPageView(apid: Self.apid, section: "News_AMP", clientID: "amp-client-2", pageViewID: "77")
            let requests = page.requests(base: "http://census", start: Self.start, visibleSeconds: 45)
            for request in requests.reversed() + requests {
                try await client.execute(uri: Self.path(request.url), method: .get) { #expect($0.status == .ok) }
            }
            #expect(try await Self.staticRows(server) == ["News_AMP": 45])
            let pings = try await server.store.reports.report(ReportQuery(appid: "P" + Self.apid))
            #expect(pings.map(\.views) == [1])
        }
    }

    /// A page hidden for a minute and shown again: only the visible time counts; the segments
    /// and `segC` "Google AMP" are in the stored pings.
    @Test func hiddenTimeIsNotCredited() async throws {
        try await withApp(.sqlite) { client, server in
            let page = AMPPageView(apid: Self.apid, section: "Sport_AMP", clientID: "amp-client-3", pageViewID: "9")
            let first = page.requests(base: "http://census", start: Self.start, visibleSeconds: 20)
            let again = page.requests(base: "http://census", start: Self.start + 80_000, visibleSeconds: 30).dropFirst()
            for request in first + again {
                try await client.execute(uri: Self.path(request.url), method: .get) { #expect($0.status == .ok) }
            }
            #expect(try await Self.staticRows(server) == ["Sport_AMP": 50])
            let report = try await server.store.reports.report(ReportQuery(appid: "P" + Self.apid))
            let session = try #require(report.first).sessions
            #expect(session == 1)
        }
    }

    @Test(arguments: [
        ("/nmapi/v2/not-a-guid!/c_1/a?b=%7B%7D", "the apid must be the GUID"),
        ("/nmapi/v2/\(apid)/c_1/a", "no b= parameter"),
        ("/nmapi/v2/\(apid)/c_1/a?b=%7Bnope", "b= is not a JSON object"),
        ("/nmapi/v2/\(apid)/c_1/a?b=%7B%22type%22%3A%22static%22%7D", "metadata.static.section is missing"),
        ("/cgi-bin/gn?prd=session&c13=asid,&sessionId=c_1", "AMP session: c13 must be asid,P<apid>"),
    ])
    func malformedAMPRequestsGet400WithTheReason(_ uri: String, _ reason: String) async throws {
        try await withApp(.sqlite) { client, server in
            try await client.execute(uri: uri, method: .get) { response in
                #expect(response.status == .badRequest)
                #expect(String(buffer: response.body).contains(reason), "\(String(buffer: response.body))")
            }
            #expect(try await server.store.rejectReasons().count == 1)
        }
    }
}
