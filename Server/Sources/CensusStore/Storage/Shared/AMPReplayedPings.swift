import Crypto
import Foundation
import SQLKit

/// What each Google AMP page view's last replay stored (`census_amp_page_views`): the ids of its
/// pings, so that the next replay deletes the ones it no longer builds by their ids, and its app
/// and first and last request's times, by which the sessions list reads it.
///
/// Every AMP request replays its page view and deletes the pings the replay no longer builds.
/// Found through the session's spans (``SessionSpans``), those are picked from every ping the
/// app sent since the page view began, which grows with the publisher's traffic on every
/// request; by id, the delete costs what the page view holds. Listed by its own app and time
/// (migration 15), a page view is never joined to a span another app's pings wrote under the
/// same session id (census-decisions.md S43).
enum AMPReplayedPings {
    /// What the last replay of a page view recorded.
    struct Record {
        /// The page view's app: `P` + apid.
        var appid: String
        /// The stored keys of the pings it built, in build order.
        var ids: [String]
    }

    /// The ids the last replay of `session` (a page view's key) stored, or nil when no replay
    /// recorded them (a page view last replayed by a census before this table).
    static func ids(of session: String, _ db: any SQLDatabase) async throws -> [String]? {
        try await record(of: session, db)?.ids
    }

    /// What the last replay of `session` recorded, or nil.
    static func record(of session: String, _ db: any SQLDatabase) async throws -> Record? {
        try await db.select().columns("appid", "ping_ids").from("census_amp_page_views")
            .where("session_id", .equal, session).first()
            .map { Record(appid: try $0.decode(column: "appid", as: String.self),
                          ids: try $0.decode(column: "ping_ids", as: String.self).split(separator: " ").map(String.init)) }
    }

    /// Records `ids` as what the replay of `session` of `appid` stored, its requests made from
    /// `first` to `last` (Unix seconds, held to their receipts' windows). The replay builds the
    /// ids (`amp-<digest>-<n>`), so none holds the space that separates them.
    static func record(_ ids: [String], of session: String, appid: String, first: Int64, last: Int64,
                       _ db: any SQLDatabase) async throws {
        try await db.insert(into: "census_amp_page_views").columns("session_id", "ping_ids", "appid", "first_at", "last_at")
            .values(SQLBind(session), SQLBind(ids.joined(separator: " ")), SQLBind(appid), SQLBind(first), SQLBind(last))
            .onConflict(with: ["session_id"]) { $0.set(excludedValueOf: "ping_ids").set(excludedValueOf: "appid")
                .set(excludedValueOf: "first_at").set(excludedValueOf: "last_at") }
            .run()
    }

    /// The table; page views replayed before it keep no row until their next replay.
    static func migrate(_ db: any SQLDatabase) async throws {
        try await db.raw("""
            CREATE TABLE IF NOT EXISTS census_amp_page_views (session_id TEXT NOT NULL PRIMARY KEY, ping_ids TEXT NOT NULL)
            """).run()
    }

    /// Migration 15: each page view's app and times, read from its stored requests (the apid of
    /// its path; their `utc` held to their receipts' windows, as the census now reads them); a
    /// record with no stored request, which no replay writes, goes. Indexes by app and time, and
    /// by time for the list of every app.
    static func addAppAndTimes(_ db: CensusSQL) async throws {
        let ifNotExists = db.engine.addColumnIfNotExists
        try await db.raw("ALTER TABLE census_amp_page_views ADD COLUMN \(unsafeRaw: ifNotExists)appid TEXT NOT NULL DEFAULT ''").run()
        for column in ["first_at", "last_at"] {
            try await db.raw("ALTER TABLE census_amp_page_views ADD COLUMN \(unsafeRaw: ifNotExists)\(ident: column) BIGINT NOT NULL DEFAULT 0").run()
        }
        try await db.engine.makeTextByteOrdered(db)
        var pageViews: [String: (appid: String, first: Int64, last: Int64)] = [:]
        for row in try await db.raw("""
            SELECT page_view, MIN(apid) AS apid, MIN(utc_ms) AS first_utc, MAX(utc_ms) AS last_utc,
                   MIN(received_at) AS first_received, MAX(received_at) AS last_received
            FROM census_amp_events GROUP BY page_view
            """).all() {
            let first = SenderClock.held(milliseconds: try row.decode(column: "first_utc", as: Int64.self),
                                         receivedAt: try row.decode(column: "first_received", as: Int64.self))
            let last = SenderClock.held(milliseconds: try row.decode(column: "last_utc", as: Int64.self),
                                        receivedAt: try row.decode(column: "last_received", as: Int64.self))
            pageViews[key(ofPageView: try row.decode(column: "page_view", as: String.self))] =
                ("P" + (try row.decode(column: "apid", as: String.self)), first / 1000, max(first, last) / 1000)
        }
        let sessions = try await db.select().column("session_id").from("census_amp_page_views").all()
            .map { try $0.decode(column: "session_id", as: String.self) }
        for session in sessions {
            guard let page = pageViews[session] else {
                try await db.delete(from: "census_amp_page_views").where("session_id", .equal, session).run()
                continue
            }
            try await db.update("census_amp_page_views").set("appid", to: page.appid).set("first_at", to: page.first)
                .set("last_at", to: page.last).where("session_id", .equal, session).run()
        }
        try await db.raw("CREATE INDEX IF NOT EXISTS census_amp_page_views_by_app ON census_amp_page_views (appid, last_at)").run()
        try await db.raw("CREATE INDEX IF NOT EXISTS census_amp_page_views_by_time ON census_amp_page_views (last_at)").run()
    }

    /// The session key of page view `pageView` (`<apid>/<visit>`): ``AMPCloudEvent``'s
    /// `pageViewKey`, and migration 15's from the stored column.
    static func key(ofPageView pageView: String) -> String {
        "amp-" + AMPPageViewReplay.hex(SHA256.hash(data: Data(pageView.utf8)).prefix(12))
    }
}
