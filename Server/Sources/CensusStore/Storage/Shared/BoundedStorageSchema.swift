import SQLKit

/// The schema steps of the census's hardening against hostile senders (docs/census.md §4b, §6).
enum BoundedStorageSchema {
    /// Ping ids scoped to their app (``PingKey``): every stored key becomes `<appid>/<pingid>`, so
    /// a ping queued by an earlier release and delivered again after the upgrade is still a
    /// duplicate. AMP page views forget the ids their last replay recorded; their next replay
    /// deletes through the session's spans once, as for a page view replayed before the record.
    static func scopePingIDs(_ db: any SQLDatabase) async throws {
        try await db.raw("UPDATE census_pings SET ping_id = appid || '/' || ping_id").run()
        try await db.raw("UPDATE census_viewability SET ping_id = appid || '/' || ping_id").run()
        try await db.raw("DELETE FROM census_amp_page_views").run()
    }

    /// Seconds over a ping's bound (``CreditBounds``), and what an app's interval was before a
    /// change (``AppRegistry``).
    static func addOverBoundSeconds(_ db: CensusSQL) async throws {
        let ifNotExists = db.engine.addColumnIfNotExists
        for (table, column) in [("census_pings", "over_bound_seconds"), ("census_viewability", "over_bound_seconds"),
                                ("census_apps", "interval_ceiling"), ("census_apps", "interval_changed_at")] {
            try await db.raw("ALTER TABLE \(ident: table) ADD COLUMN \(unsafeRaw: ifNotExists)\(ident: column) BIGINT NOT NULL DEFAULT 0").run()
        }
    }

    /// The app and size of each stored reject and trace entry, for their quotas and budget
    /// (``StorageBudget``), and indexes by time for their retention.
    static func addSizes(_ db: CensusSQL) async throws {
        let ifNotExists = db.engine.addColumnIfNotExists
        try await db.raw("ALTER TABLE census_rejects ADD COLUMN \(unsafeRaw: ifNotExists)appid TEXT NOT NULL DEFAULT ''").run()
        try await db.raw("ALTER TABLE census_rejects ADD COLUMN \(unsafeRaw: ifNotExists)bytes BIGINT NOT NULL DEFAULT 0").run()
        try await db.raw("ALTER TABLE census_trace ADD COLUMN \(unsafeRaw: ifNotExists)bytes BIGINT NOT NULL DEFAULT 0").run()
        try await db.raw("UPDATE census_rejects SET bytes = LENGTH(reason) + LENGTH(raw_request) + \(unsafeRaw: String(StorageBudget.rowOverhead))").run()
        try await db.raw("UPDATE census_trace SET bytes = LENGTH(entry) + \(unsafeRaw: String(StorageBudget.rowOverhead))").run()
        try await db.raw("CREATE INDEX IF NOT EXISTS census_rejects_by_time ON census_rejects (received_at)").run()
        try await db.raw("CREATE INDEX IF NOT EXISTS census_trace_by_time ON census_trace (received_at)").run()
        try await db.engine.makeTextByteOrdered(db)
    }
}
