import CensusStore
import Hummingbird
import MeterWire

/// `GET /api/v1/sessions`: the traced sessions and Google AMP's page views, latest first, each
/// with its label.
struct SessionListResponse: ResponseEncodable {
    let sessions: [SessionListRow]
}

/// A session as the dashboard lists it.
struct SessionListRow: Encodable, Sendable {
    let session: String
    let appid: String
    let sdk: String
    let firstCall: Double
    let lastCall: Double
    let calls: Int64
    /// False for a Google AMP page view: no SDK traced it, there is nothing to certify.
    let traced: Bool
    let appName: String
    let assets: [String]
    let platform: String
}

/// `GET /api/v1/sessions/{session}/trace`: one session's calls, the pings the census stored of
/// them, the credit they earn (``SessionCredit``) and the timeline, credited with it.
struct TraceResponse: ResponseEncodable {
    let session: String
    let entries: [CallTraceEntry]
    let stored: [StoredPing]
    let credit: [AssetCredit]
    let timeline: [TimelineSegment]
    /// Each ping's parameters, by ping id, read here for the dashboard (``DecodedParameter``).
    let decoded: [String: [DecodedParameter]]
}

extension SessionController {
    /// How many of a Google AMP page view's first pings its label is read from.
    static let labelPings = 20

    /// The sessions list: at most `limit` of each, labelled; a label costs one bounded read. Every
    /// read is keyed by the session's app and id, never by a span of times another sender could
    /// widen (census-decisions.md S43), so the list costs the same whatever other apps send.
    func sessionList(appid: String?, limit: Int = 200) async throws -> SessionListResponse {
        let traced = try await store.traces.traceSessions(appid: appid, limit: limit)
        let pageViews = try await store.sessions.ampPageViews(appid: appid, limit: limit)
        var rows: [SessionListRow] = []
        for row in traced {
            let label = try await store.sessions.label(ofTraced: row)
            rows.append(Self.row(row, traced: true, label: label))
        }
        for row in pageViews {
            let pings = try await store.sessions.ampPageViewPings(session: row.session, first: Self.labelPings)?.pings ?? []
            let name = pings.lazy.compactMap { try? PingQuery.parse(Substring($0.rawQuery)).get().unprefixedValue(.appName) }.first
            var assets: [String] = []
            for ping in pings where !assets.contains(ping.assetid) && assets.count < SessionLabel.kept { assets.append(ping.assetid) }
            rows.append(Self.row(row, traced: false, label: SessionLabel(appName: name ?? "", assets: assets, platform: "Google AMP")))
        }
        rows.sort { $0.lastCall > $1.lastCall }
        return SessionListResponse(sessions: Array(rows.prefix(limit)))
    }

    /// The trace of `session` under `appid` with its credit; a Google AMP page view has no calls,
    /// only the pings the census replayed of it. Without `appid`, the session's one app: a session
    /// id traced under several apps is a `409` asking which (census-decisions.md S43).
    func traceResponse(session: String, appid: String?) async throws -> TraceResponse {
        let traced = try await store.traces.traceSessions(appid: appid, session: session, limit: nil)
        let entries: [CallTraceEntry]
        let stored: [StoredPing]
        if let row = traced.first {
            guard traced.count == 1 else {
                throw HTTPError(.conflict, message: "session \(session) is traced under \(traced.count) apps; say which: ?appid=<id>")
            }
            entries = try await store.traces.trace(session: session, appid: row.appid)
            stored = try await store.traces.pings(ids: entries.flatMap { $0.pings.map(\.id) }, appid: row.appid)
        } else if let pageView = try await store.sessions.ampPageViewPings(session: session), appid == nil || appid == pageView.appid {
            entries = []
            stored = pageView.pings
        } else {
            throw HTTPError(.notFound, message: "no trace for session \(session)")
        }
        let credit = SessionCredit.assets(of: stored)
        let timeline = SessionTimeline.credited(SessionTimeline.segments(of: entries, stored: stored), credit: credit,
                                                stored: stored, entries: entries)
        return TraceResponse(session: session, entries: entries, stored: stored, credit: credit, timeline: timeline,
                             decoded: DecodedParameter.pings(entries: entries, stored: stored))
    }

    private static func row(_ row: TraceSessionRow, traced: Bool, label: SessionLabel) -> SessionListRow {
        SessionListRow(session: row.session, appid: row.appid, sdk: row.sdk, firstCall: row.firstCall, lastCall: row.lastCall,
                       calls: row.calls, traced: traced, appName: label.appName, assets: label.assets, platform: label.platform)
    }
}
