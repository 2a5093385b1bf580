package import CensusStore
import Foundation
import Hummingbird
import MeterWire
import Crypto

extension SignedCertification: ResponseEncodable {}
extension CertificationKeyInfo: ResponseEncodable {}

/// `GET /api/v1/rejects`.
struct RejectsResponse: ResponseEncodable {
    let rejects: [RejectRow]
}

/// The read routes behind the token: sessions, their pings and traces, certification, rejects, the
/// live feed; and the certification key, open to anyone handed an export.
package struct SessionController: Sendable {
    /// Where sessions, traces and rejects are read (a replica, with `--read-database`).
    let store: PingStore
    /// The census's signing key, made on first use: on the primary, which takes writes.
    let keys: TraceStore
    let feed: LiveFeed

    /// Open: whoever is handed an export must be able to check it without the read token.
    func addOpenRoutes(to router: Router<BasicRequestContext>) {
        router.get("/certification/key") { _, _ in
            CertificationKeyInfo(publicKey: try await keys.signingKey().publicKey.rawRepresentation.base64EncodedString())
        }
    }

    func addRoutes(to api: RouterGroup<BasicRequestContext>) {
        api.get("sessions/:session/pings") { request, context in
            let session = try context.parameters.decoded("session")
            return SessionResponse(session: session, pings: try await store.sessions.pings(session: session, appid: request.appParameter))
        }
        api.get("sessions") { request, _ in
            try await sessionList(appid: request.uri.queryParameters.get("appid").flatMap { $0.isEmpty ? nil : $0 })
        }
        api.get("sessions/:session/trace") { request, context in
            try await traceResponse(session: try context.parameters.decoded("session"), appid: request.appParameter)
        }
        api.get("certification") { request, _ in
            let parameters = request.uri.queryParameters
            let reports = try await certify(session: parameters.get("session"), appid: request.appParameter)
            return try await keys.signed(reports)
        }
        api.get("rules") { _, _ in RulesResponse(rules: RulePack.standard) }
        api.get("rejects") { _, _ in RejectsResponse(rejects: try await store.recentRejects(limit: 100)) }
        api.get("live") { _, _ in liveEvents() }
    }

    /// Certifies one session (under `appid` when given, else under each app that traced it), or
    /// every traced session of an app (newest first).
    package func certify(session: String?, appid: String?) async throws -> [CertificationReport] {
        let appid = appid.flatMap { $0.isEmpty ? nil : $0 }
        let sessions: [TraceSessionRow]
        if let session, !session.isEmpty {
            sessions = try await store.traces.traceSessions(appid: appid, session: session, limit: nil)
            guard !sessions.isEmpty else { throw HTTPError(.notFound, message: "no trace for session \(session)") }
        } else if let appid, !appid.isEmpty {
            sessions = try await store.traces.traceSessions(appid: appid, limit: nil)
        } else {
            throw HTTPError(.badRequest, message: "say which: ?session=<id> or ?appid=<id>")
        }
        var reports: [CertificationReport] = []
        for row in sessions {
            let trace = try await store.traces.trace(session: row.session, appid: row.appid)
            // As of the session's last call as sent, not the clock, nor the time the list reads
            // (census-decisions.md S42): the same trace certifies to the same sha256.
            let lastCall = trace.map(\.time).max() ?? row.lastCall
            reports.append(CertificationEvaluator.evaluate(session: row.session, appid: row.appid, sdk: row.sdk, trace: trace,
                                                           at: Int64(exactly: lastCall.rounded(.down)) ?? 0))
        }
        return reports
    }

    /// Server-sent events: one `data:` line of JSON per ``LiveEvent``.
    private func liveEvents() -> Response {
        guard let (id, events) = feed.watch() else {
            return CensusError.tooManyWatchers.response
        }
        return Response(
            status: .ok,
            headers: [.contentType: "text/event-stream", .cacheControl: "no-cache"],
            body: ResponseBody { writer in
                defer { feed.stopWatching(id) }
                try await writer.write(ByteBuffer(string: ": live\n\n"))
                for await line in events {
                    try await writer.write(ByteBuffer(string: "data: \(line)\n\n"))
                }
                try await writer.finish(nil)
            })
    }
}

/// `GET /api/v1/rules`: the rule pack.
struct RulesResponse: ResponseEncodable {
    let rules: [CertificationRule]
}

extension Request {
    /// The `appid` query parameter, nil when absent or empty: the app a read is keyed by.
    var appParameter: String? {
        uri.queryParameters.get("appid").flatMap { $0.isEmpty ? nil : $0 }
    }
}
