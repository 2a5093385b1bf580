import CensusHTTP
import CensusStore
import MeterTables
import Foundation
import Hummingbird
import HummingbirdTesting
import MeterWire
import Testing
import NIOFoundationEssentialsCompat

/// The trace endpoint, the read API behind the token, and the dashboard's page.
@Suite struct CertificationRouteTests {
    func withApp(
        _ backend: Backend, access: CensusAccess = .open,
        _ body: @escaping @Sendable (any TestClientProtocol, CensusServer) async throws -> Void
    ) async throws {
        try await backend.withStore { store in
            let server = CensusServer(store: store, access: access)
            let app = Application(router: server.router())
            try await app.test(.router) { client in try await body(client, server) }
        }
    }

    static func body(_ batch: CallTraceBatch) -> ByteBuffer {
        ByteBuffer(data: batch.body())
    }

    static func batch(session: String = "s-1", from trace: TraceBuilder = vodWithAds()) -> CallTraceBatch {
        CallTraceBatch(session: session, appid: "P00000000-0000-4000-8000-000000000001", sdk: "al.1.0.0", entries: trace.entries)
    }

    @Test(arguments: Backend.available)
    func aTraceIsStoredOnceAndCertified(_ backend: Backend) async throws {
        try await withApp(backend) { client, server in
            let batch = Self.batch()
            // In parts as the SDK sends it, the second part twice (a retry), the last first (out of order).
            var parts = stride(from: 0, to: batch.entries.count, by: 150).map { start in
                CallTraceBatch(session: batch.session, appid: batch.appid, sdk: batch.sdk,
                               entries: Array(batch.entries[start..<min(start + 150, batch.entries.count)]))
            }
            parts.insert(parts[1], at: 2)
            parts.insert(parts.removeLast(), at: 0)
            for part in parts {
                try await client.execute(uri: WireRoute.trace, method: .post, body: Self.body(part)) { response in
                    #expect(response.status == .ok)
                }
            }
            #expect(try await server.store.traces.trace(session: "s-1", appid: batch.appid) == batch.entries)
            try await client.execute(uri: "/api/v1/certification?session=s-1", method: .get) { response in
                #expect(response.status == .ok)
                let answer = try JSONDecoder().decode(CertificationExportShape.self, from: Data(buffer: response.body))
                #expect(answer.passed)
                #expect(answer.reports.first?.results.first { $0.id == "test.vodWithAds" }?.status == .pass)
            }
            try await client.execute(uri: "/api/v1/sessions/s-1/trace", method: .get) { response in
                let answer = try JSONDecoder().decode(TraceShape.self, from: Data(buffer: response.body))
                #expect(answer.timeline.map(\.type) == ["preroll", "content", "midroll", "content", "postroll"])
            }
        }
    }

    @Test(arguments: Backend.available)
    func aBadTraceIsRefusedWithItsReason(_ backend: Backend) async throws {
        try await withApp(backend) { client, server in
            let cases: [(ByteBuffer, String)] = [
                (ByteBuffer(string: "not json"), "not a call trace batch"),
                (Self.body(CallTraceBatch(session: "", appid: "a", sdk: "s", entries: vodWithAds().entries)), "'session'"),
                (Self.body(CallTraceBatch(session: "s", appid: "a", sdk: "s", entries: [])), "1 to 200 entries"),
            ]
            for (body, reason) in cases {
                try await client.execute(uri: WireRoute.trace, method: .post, body: body) { response in
                    #expect(response.status == .badRequest)
                    #expect(String(buffer: response.body).contains(reason))
                }
            }
            #expect(try await server.store.recentRejects().count == 3)
        }
    }

    @Test func readsNeedTheTokenWhenOneIsSetAndIngestNeverDoes() async throws {
        try await withApp(.sqlite, access: CensusAccess(token: "s3cret-token")) { client, _ in
            try await client.execute(uri: "/api/v1/report", method: .get) { response in
                #expect(response.status == .unauthorized)
                #expect(response.headers[.wwwAuthenticate]?.hasPrefix("Bearer") == true)
            }
            // A token is refused unless every byte matches: a changed last byte, a prefix, a longer one.
            for wrong in ["s3cret-tokeX", "s3cret", "s3cret-token-and-more", ""] {
                try await client.execute(uri: "/api/v1/sessions", method: .get,
                                         headers: [.authorization: "Bearer \(wrong)"]) { response in
                    #expect(response.status == .unauthorized, "\(wrong)")
                }
            }
            try await client.execute(uri: "/api/v1/sessions", method: .get,
                                     headers: [.authorization: "Bearer s3cret-token"]) { response in
                #expect(response.status == .ok)
            }
            try await client.execute(uri: "/api/v1/rejects?token=s3cret-token", method: .get) { response in
                #expect(response.status == .ok)
            }
            try await client.execute(uri: "/cgi-bin/gn?" + PingQueries.valid(pingID: "open-1"), method: .get) { response in
                #expect(response.status == .ok)
            }
            try await client.execute(uri: WireRoute.trace, method: .post, body: Self.body(Self.batch(from: TraceBuilder()))) { response in
                #expect(response.status == .ok)
            }
            try await client.execute(uri: "/", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentSecurityPolicy]?.contains("script-src 'self'") == true)
            }
        }
    }

    @Test func anEmptyTokenIsNoTokenAndLoopbackIsKnown() {
        let access = CensusAccess(token: "abcdef")
        #expect(CensusAccess(token: "").token == nil)
        #expect(access.token == "abcdef")
        #expect(CensusAccess.isLoopback("127.0.0.1") && CensusAccess.isLoopback("::1") && !CensusAccess.isLoopback("0.0.0.0"))
    }

    @Test func thePageBuildsNothingFromMarkup() async throws {
        try await withApp(.sqlite) { client, _ in
            try await client.execute(uri: "/dashboard.js", method: .get) { response in
                let script = String(buffer: response.body)
                #expect(!script.contains("innerHTML"))
                #expect(!script.contains("insertAdjacentHTML"))
                #expect(!script.contains("document.write"))
            }
        }
    }
}

/// The JSON shapes the tests read.
struct CertificationExportShape: Decodable {
    let reports: [CertificationReport]
    let passed: Bool
}

struct TraceShape: Decodable {
    let session: String
    let entries: [CallTraceEntry]
    let timeline: [TimelineSegment]
}
