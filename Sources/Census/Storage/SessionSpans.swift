import SQLKit

/// Where each viewing session's pings lie in time: `census_sessions` holds, per session and app,
/// a span of creation times (`created_at`) that covers every ping of the session, so the pings
/// of a session are found by a range over the app's time-ordered index (`census_pings_by_app`,
/// or `census_pings_by_app_time` on PostgreSQL) rather than through an index keyed by session.
///
/// An index keyed by session took each ping of a fleet's traffic to a random page of the largest
/// table: on SQLite, whose log writes whole pages, that cost a third of the census's ingest
/// (docs/performance.md, "Finding a session's pings"). A span is written when a session starts,
/// and again only when a ping falls outside it; a span ends ``slack`` seconds after the newest
/// ping it was widened for, so a session sending a ping a minute rewrites its span about once an
/// hour. Spans only widen, so a ping once stored stays inside its session's span even when the
/// ping is later replaced or deleted (a Google AMP replay).
///
/// Triggers keep the spans, in the transaction of every insert or update of `census_pings`,
/// whichever code (or older server) writes them: a row trigger on SQLite, a statement trigger
/// over the statement's rows on PostgreSQL. Pings without a session id have no span.
enum SessionSpans {
    /// How far past the newest ping a span reaches when it is written, in seconds.
    static let slack: Int64 = 3600

    /// The table, its triggers, spans for the pings already stored, and the indexes that read
    /// them in place of the index by session.
    static func migrate(_ db: any SQLDatabase) async throws {
        if db.dialect.name == "postgresql" {
            try await createTableAndTriggersOnPostgreSQL(db)
        } else {
            try await createTableAndTriggerOnSQLite(db)
        }
        try await reindex(db)
    }

    /// The end of a span written for a ping created at `created` (an SQL expression): ``slack``
    /// later, or the largest time there is, as `created_at` is whatever the ping said.
    static func spanEnd(_ created: String) -> String {
        "CASE WHEN \(created) > \(Int64.max - slack) THEN \(Int64.max) ELSE \(created) + \(slack) END"
    }

    private static func createTableAndTriggerOnSQLite(_ db: any SQLDatabase) async throws {
        try await db.raw("""
            CREATE TABLE IF NOT EXISTS census_sessions (session_id TEXT NOT NULL, appid TEXT NOT NULL,
                starts_at BIGINT NOT NULL, ends_at BIGINT NOT NULL, PRIMARY KEY (session_id, appid)) WITHOUT ROWID
            """).run()
        // One trigger per event: an AMP replay's upsert updates pings it stored before.
        for (name, event) in [("after_insert", "INSERT"), ("after_update", "UPDATE OF session_id, appid, created_at")] {
            try await db.raw("""
                CREATE TRIGGER IF NOT EXISTS census_sessions_\(unsafeRaw: name) AFTER \(unsafeRaw: event) ON census_pings
                WHEN NEW.session_id <> ''
                BEGIN
                    INSERT INTO census_sessions (session_id, appid, starts_at, ends_at)
                    VALUES (NEW.session_id, NEW.appid, NEW.created_at, \(unsafeRaw: spanEnd("NEW.created_at")))
                    ON CONFLICT (session_id, appid) DO UPDATE SET \(unsafeRaw: widen)
                    WHERE excluded.starts_at < census_sessions.starts_at OR excluded.starts_at > census_sessions.ends_at;
                END
                """).run()
        }
        try await backfill(db)
    }

    private static func createTableAndTriggersOnPostgreSQL(_ db: any SQLDatabase) async throws {
        try await db.raw("""
            CREATE TABLE IF NOT EXISTS census_sessions (session_id TEXT NOT NULL, appid TEXT NOT NULL,
                starts_at BIGINT NOT NULL, ends_at BIGINT NOT NULL, PRIMARY KEY (session_id, appid))
            """).run()
        // Spans already covering the statement's pings are left alone: `ON CONFLICT DO UPDATE`
        // locks (writes) each conflicting row even when its `WHERE` is false. In key order, after
        // the statement's pings, so two servers given the same retries cannot deadlock.
        try await db.raw("""
            CREATE OR REPLACE FUNCTION census_sessions_widen() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                INSERT INTO census_sessions AS census_sessions (session_id, appid, starts_at, ends_at)
                SELECT batch.session_id, batch.appid, batch.first_created, \(unsafeRaw: spanEnd("batch.last_created"))
                FROM (SELECT session_id, appid, MIN(created_at) AS first_created, MAX(created_at) AS last_created
                      FROM changed WHERE session_id <> '' GROUP BY session_id, appid) AS batch
                WHERE NOT EXISTS (SELECT 1 FROM census_sessions AS known
                                  WHERE known.session_id = batch.session_id AND known.appid = batch.appid
                                  AND known.starts_at <= batch.first_created AND known.ends_at >= batch.last_created)
                ORDER BY batch.session_id, batch.appid
                ON CONFLICT (session_id, appid) DO UPDATE SET \(unsafeRaw: widen);
                RETURN NULL;
            END $$
            """).run()
        for (name, event) in [("after_insert", "INSERT"), ("after_update", "UPDATE")] {
            try await db.raw("""
                CREATE OR REPLACE TRIGGER census_sessions_\(unsafeRaw: name) AFTER \(unsafeRaw: event) ON census_pings
                REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION census_sessions_widen()
                """).run()
        }
        try await backfill(db)
    }

    /// `SET` of an upsert that widens the stored span to cover the proposed one.
    private static let widen = """
        starts_at = CASE WHEN excluded.starts_at < census_sessions.starts_at THEN excluded.starts_at ELSE census_sessions.starts_at END,
        ends_at = CASE WHEN excluded.ends_at > census_sessions.ends_at THEN excluded.ends_at ELSE census_sessions.ends_at END
        """

    /// Spans for the pings stored before the triggers (widening any a trigger wrote meanwhile).
    private static func backfill(_ db: any SQLDatabase) async throws {
        try await db.raw("""
            INSERT INTO census_sessions AS census_sessions (session_id, appid, starts_at, ends_at)
            SELECT session_id, appid, MIN(created_at), MAX(created_at) FROM census_pings
            WHERE session_id <> '' GROUP BY session_id, appid
            ON CONFLICT (session_id, appid) DO UPDATE SET \(unsafeRaw: widen)
            """).run()
    }

    /// The index by session goes. On PostgreSQL the app index gains the session id, so a
    /// session's pings are picked out of a time range on the index alone. On SQLite it does not:
    /// its log writes each page a commit changes whole, and the entries of one second, ordered by
    /// session id among themselves, took each ping of a batch to a page of its own again (a fifth
    /// of the census's rate, docs/performance.md); there the session id is read from each row.
    private static func reindex(_ db: any SQLDatabase) async throws {
        if db.dialect.name == "postgresql" {
            try await db.raw("CREATE INDEX IF NOT EXISTS census_pings_by_app_time ON census_pings (appid, created_at, session_id)").run()
            try await db.raw("DROP INDEX IF EXISTS census_pings_by_app").run()
        }
        try await db.raw("DROP INDEX IF EXISTS census_pings_by_session").run()
    }
}
