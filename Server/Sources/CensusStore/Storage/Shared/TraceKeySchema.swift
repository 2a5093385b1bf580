import SQLKit

/// Migration 16: call-trace entries keyed by session, app and sequence number, and their listed
/// times held to the window around their receipt (census-decisions.md S42, S43).
///
/// Keyed by session and sequence number alone, an entry another app sent first under a session
/// id took that number from the session's own SDK, whose entry was then dropped as a retry; and
/// a time dated 2100 headed the sessions lists until its retention. The table is made anew (SQLite
/// cannot change a primary key), copied within the migration's transaction: the trace budget
/// holds it to 64 MiB by default.
enum TraceKeySchema {
    /// The columns, in the order they are copied.
    private static let columns = "session, seq, appid, sdk, received_at, call_time, call, entry, bytes"

    static func keyByApp(_ db: CensusSQL) async throws {
        try await db.raw("""
            CREATE TABLE census_trace_by_session_app (
                session TEXT NOT NULL, seq BIGINT NOT NULL, appid TEXT NOT NULL, sdk TEXT NOT NULL,
                received_at BIGINT NOT NULL, call_time DOUBLE PRECISION NOT NULL, call TEXT NOT NULL,
                entry TEXT NOT NULL, bytes BIGINT NOT NULL DEFAULT 0, PRIMARY KEY (session, appid, seq))
            """).run()
        // `SenderClock.held(seconds:receivedAtMilliseconds:)` in SQL.
        let receipt = "(received_at / 1000.0)"
        let held = """
            CASE WHEN call_time = 0 THEN \(receipt)
                 WHEN call_time > \(receipt) + \(SenderClock.ahead) THEN \(receipt) + \(SenderClock.ahead)
                 WHEN call_time < \(receipt) - \(SenderClock.behind) THEN \(receipt) - \(SenderClock.behind)
                 ELSE call_time END
            """
        try await db.raw("""
            INSERT INTO census_trace_by_session_app (\(unsafeRaw: columns))
            SELECT session, seq, appid, sdk, received_at, \(unsafeRaw: held), call, entry, bytes FROM census_trace
            """).run()
        try await db.raw("DROP TABLE census_trace").run()
        try await db.raw("ALTER TABLE census_trace_by_session_app RENAME TO census_trace").run()
        try await db.raw("CREATE INDEX IF NOT EXISTS census_trace_by_app ON census_trace (appid, call_time)").run()
        try await db.raw("CREATE INDEX IF NOT EXISTS census_trace_by_time ON census_trace (received_at)").run()
        try await db.engine.makeTextByteOrdered(db)
    }
}
