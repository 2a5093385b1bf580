package import SQLKit

/// Where each viewing session's pings lie in time: `census_sessions` holds, per session and app,
/// a span of creation times (`created_at`) that covers every ping of the session, so the pings
/// of a session are found by a range over the app's time-ordered index (`census_pings_by_app`,
/// reading each row's session id) rather than through an index keyed by session.
///
/// An index keyed by session took each ping of a fleet's traffic to a random page of the largest
/// table: on SQLite, whose log writes whole pages, that cost a third of the census's ingest
/// (docs/performance.md, "What the figures rest on", and its git log). A span is written when a session starts,
/// and again only when a ping falls outside it; it then reaches ``slack`` seconds past the newest
/// ping it was written for, so a session sending a ping a minute rewrites its span about once an
/// hour. Spans only widen, so a ping once stored stays inside its session's span even when the
/// ping is later replaced or deleted (a Google AMP replay).
///
/// Every write of pings writes their spans first (a batch's through ``SessionSpanCache``, which
/// skips the spans it knows cover the batch): on PostgreSQL in the batch's own statement
/// (``PingBatchSpans``), so both commit or neither; on SQLite in a statement of its own
/// just before, so the spans of pings that then fail to commit are merely wider than needed.
/// Pings without a session id have no span.
package enum SessionSpans {
    /// How far past the newest ping a span reaches when it is written, in seconds.
    static let slack: Int64 = 3600

    /// The span a batch needs for one session of one app: its pings' first and last creation times.
    package struct Need: Hashable, Sendable {
        package var session: String
        package var appid: String
        package var first: Int64
        package var last: Int64

        /// The end of the span written for it: ``slack`` past `last`, short of overflow, as
        /// `created_at` is whatever a ping said.
        package var end: Int64 { last > Int64.max - slack ? Int64.max : last + slack }

        /// Widens the need to `created`.
        mutating func cover(_ created: Int64) {
            first = Swift.min(first, created)
            last = Swift.max(last, created)
        }
    }

    /// The spans `pings` need, one per session and app (none for pings without a session id).
    static func needs(of pings: some Sequence<IncomingPing>) -> [Need] {
        var needs: [SessionKey: Need] = [:]
        for ping in pings where !ping.sessionID.isEmpty {
            needs[SessionKey(session: ping.sessionID, appid: ping.appID), default: Need(
                session: ping.sessionID, appid: ping.appID, first: ping.createdAt, last: ping.createdAt)].cover(ping.createdAt)
        }
        return Array(needs.values)
    }

    /// A span's key: a session of an app.
    struct SessionKey: Hashable {
        var session: String
        var appid: String
    }

    /// Writes the spans `needs` ask for, widening the stored ones; spans that already cover a
    /// need are left alone, unlocked (PostgreSQL's `ON CONFLICT DO UPDATE` would lock, so write,
    /// each of them). In key order, so two servers writing the same sessions cannot deadlock.
    package static func write(_ needs: [Need], _ db: any SQLDatabase) async throws {
        guard !needs.isEmpty else { return }
        var rows: [SQLQueryString] = []
        for need in needs.sorted(by: { ($0.session, $0.appid) < ($1.session, $1.appid) }) {
            rows.append("(\(bind: need.session), \(bind: need.appid), \(bind: need.first), \(bind: need.end), \(bind: need.last))")
        }
        // `column1`…: the names both SQLite and PostgreSQL give the columns of a `VALUES` list.
        try await db.raw("""
            INSERT INTO census_sessions AS census_sessions (session_id, appid, starts_at, ends_at)
            SELECT need.column1, need.column2, need.column3, need.column4 FROM (VALUES \(rows.joined(separator: ", "))) AS need
            WHERE NOT EXISTS (SELECT 1 FROM census_sessions AS known
                              WHERE known.session_id = need.column1 AND known.appid = need.column2
                              AND known.starts_at <= need.column3 AND known.ends_at >= need.column5)
            ORDER BY need.column1, need.column2
            ON CONFLICT (session_id, appid) DO UPDATE SET \(unsafeRaw: widen)
            """).run()
    }

    /// The table, spans for the pings already stored, and the index by session dropped.
    static func migrate(_ db: CensusSQL) async throws {
        let withoutRowID = db.engine.withoutRowID
        try await db.raw("""
            CREATE TABLE IF NOT EXISTS census_sessions (session_id TEXT NOT NULL, appid TEXT NOT NULL,
                starts_at BIGINT NOT NULL, ends_at BIGINT NOT NULL, PRIMARY KEY (session_id, appid))\(unsafeRaw: withoutRowID)
            """).run()
        try await backfill(db)
        try await dropIndexBySession(db)
    }

    /// `SET` of an upsert that widens the stored span to cover the proposed one.
    package static let widen = """
        starts_at = CASE WHEN excluded.starts_at < census_sessions.starts_at THEN excluded.starts_at ELSE census_sessions.starts_at END,
        ends_at = CASE WHEN excluded.ends_at > census_sessions.ends_at THEN excluded.ends_at ELSE census_sessions.ends_at END
        """

    /// Spans for the pings already stored (widening any a server wrote meanwhile).
    private static func backfill(_ db: any SQLDatabase) async throws {
        try await db.raw("""
            INSERT INTO census_sessions AS census_sessions (session_id, appid, starts_at, ends_at)
            SELECT session_id, appid, MIN(created_at), MAX(created_at) FROM census_pings
            WHERE session_id <> '' GROUP BY session_id, appid
            ON CONFLICT (session_id, appid) DO UPDATE SET \(unsafeRaw: widen)
            """).run()
    }

    /// The index by session goes; the app index stays `(appid, created_at)` on both databases.
    /// With the session id as a third column a session's pings were picked on the index alone
    /// (0.11-0.17 s rather than 0.5-0.66 s for 120 pings among 1.2 million on PostgreSQL), but
    /// every ping paid for it: on SQLite one second's entries, ordered by session, took each ping
    /// of a batch to a page of its own (a fifth of the census's rate), and on PostgreSQL the index
    /// grew 13-fold (its entries no longer deduplicate) and cost 10 % of the rate
    /// (docs/performance.md, "What the figures rest on", and its git log).
    private static func dropIndexBySession(_ db: any SQLDatabase) async throws {
        try await db.raw("DROP INDEX IF EXISTS census_pings_by_session").run()
    }
}
