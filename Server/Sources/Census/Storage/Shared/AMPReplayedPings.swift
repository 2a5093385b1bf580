import SQLKit

/// The ids of the pings each Google AMP page view's last replay stored (`census_amp_page_views`),
/// so that the next replay deletes the ones it no longer builds by their ids.
///
/// Every AMP request replays its page view and deletes the pings the replay no longer builds.
/// Found through the session's spans (``SessionSpans``), those are picked from every ping the
/// app sent since the page view began, which grows with the publisher's traffic on every
/// request; by id, the delete costs what the page view holds.
enum AMPReplayedPings {
    /// The ids the last replay of `session` (a page view's key) stored, or nil when no replay
    /// recorded them (a page view last replayed by a census before this table).
    static func ids(of session: String, _ db: any SQLDatabase) async throws -> [String]? {
        try await db.select().column("ping_ids").from("census_amp_page_views")
            .where("session_id", .equal, session).first()
            .map { try $0.decode(column: "ping_ids", as: String.self).split(separator: " ").map(String.init) }
    }

    /// Records `ids` as what the replay of `session` stored. The replay builds the ids
    /// (`amp-<digest>-<n>`), so none holds the space that separates them.
    static func record(_ ids: [String], of session: String, _ db: any SQLDatabase) async throws {
        try await db.insert(into: "census_amp_page_views").columns("session_id", "ping_ids")
            .values(SQLBind(session), SQLBind(ids.joined(separator: " ")))
            .onConflict(with: ["session_id"]) { $0.set(excludedValueOf: "ping_ids") }
            .run()
    }

    /// The table; page views replayed before it keep no row until their next replay.
    static func migrate(_ db: any SQLDatabase) async throws {
        try await db.raw("""
            CREATE TABLE IF NOT EXISTS census_amp_page_views (session_id TEXT NOT NULL PRIMARY KEY, ping_ids TEXT NOT NULL)
            """).run()
    }
}
