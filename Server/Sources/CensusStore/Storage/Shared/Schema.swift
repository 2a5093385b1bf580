import Foundation
import SQLKit

/// The census schema, as an ordered list of migrations shared by SQLite and PostgreSQL.
///
/// Every step is idempotent (`IF NOT EXISTS`), and ``migrate(_:through:)``
/// serialises servers starting against one PostgreSQL at once; `census_migrations` records what
/// ran. Text columns on PostgreSQL are declared `COLLATE "C"` (``ByteOrderedText``), so that
/// both databases compare and sort text byte by byte.
enum Schema {
    struct Migration: Sendable {
        let version: Int
        let summary: String
        /// Applies the step, given the migration's time (Unix seconds).
        let apply: @Sendable (CensusSQL, Int64) async throws -> Void
    }

    static let migrations: [Migration] = [
        Migration(version: 1, summary: "pings, rejects, apps") { db, _ in
            try await db.create(table: "census_pings").ifNotExists()
                .column("ping_id", type: .text, .primaryKey(autoIncrement: false))
                .column("received_at", type: .bigint, .notNull)
                .column("appid", type: .text, .notNull)
                .column("product", type: .text, .notNull)
                .column("ping_type", type: .text, .notNull)
                .column("credit_kind", type: .text, .notNull)
                .column("asset_id", type: .text, .notNull)
                .column("credited_seconds", type: .bigint, .notNull)
                .column("session_id", type: .text, .notNull)
                .column("device_id", type: .text, .notNull)
                .column("opted_out", type: .bigint, .notNull)
                .column("created_at", type: .bigint, .notNull)
                .column("raw_query", type: .text, .notNull)
                .run()
            try await db.raw("CREATE INDEX IF NOT EXISTS census_pings_by_app ON census_pings (appid, created_at)").run()
            try await db.raw("CREATE INDEX IF NOT EXISTS census_pings_by_session ON census_pings (session_id)").run()
            try await db.create(table: "census_rejects").ifNotExists()
                .column("reject_id", type: .text, .primaryKey(autoIncrement: false))
                .column("received_at", type: .bigint, .notNull)
                .column("reason", type: .text, .notNull)
                .column("raw_request", type: .text, .notNull)
                .run()
            try await db.create(table: "census_apps").ifNotExists()
                .column("appid", type: .text, .primaryKey(autoIncrement: false))
                .column("enabled", type: .bigint, .notNull)
                .column("duration_ping_interval", type: .bigint, .notNull)
                .run()
        },
        Migration(version: 2, summary: "channel names, for the DTVR report") { db, _ in
            try await db.raw("ALTER TABLE census_pings ADD COLUMN \(unsafeRaw: db.engine.addColumnIfNotExists)channel_name TEXT NOT NULL DEFAULT ''").run()
        },
        Migration(version: 3, summary: "Google AMP cloud-API events, replayed per page view") { db, _ in
            try await db.create(table: "census_amp_events").ifNotExists()
                .column("event_id", type: .text, .primaryKey(autoIncrement: false))
                .column("page_view", type: .text, .notNull)
                .column("apid", type: .text, .notNull)
                .column("visit", type: .text, .notNull)
                .column("utc_ms", type: .bigint, .notNull)
                .column("request_index", type: .bigint, .notNull)
                .column("hidden", type: .bigint, .notNull)
                .column("body", type: .text, .notNull)
                .column("received_at", type: .bigint, .notNull)
                .run()
            try await db.raw("CREATE INDEX IF NOT EXISTS census_amp_events_by_page_view ON census_amp_events (page_view)").run()
        },
        Migration(version: 4, summary: "viewability pings") { db, _ in
            try await db.create(table: "census_viewability").ifNotExists()
                .column("ping_id", type: .text, .primaryKey(autoIncrement: false))
                .column("received_at", type: .bigint, .notNull)
                .column("appid", type: .text, .notNull)
                .column("session_id", type: .text, .notNull)
                .column("asset_id", type: .text, .notNull)
                .column("created_at", type: .bigint, .notNull)
                .column("measured_seconds", type: .bigint, .notNull)
                .column("viewable_seconds", type: .bigint, .notNull)
                .column("audible_seconds", type: .bigint, .notNull)
                .column("body", type: .text, .notNull)
                .run()
            try await db.raw("CREATE INDEX IF NOT EXISTS census_viewability_by_app ON census_viewability (appid, created_at)").run()
        },
        Migration(version: 5, summary: "the OTT connection of each ping (c71/c72)") { db, _ in
            try await db.raw("ALTER TABLE census_pings ADD COLUMN \(unsafeRaw: db.engine.addColumnIfNotExists)ott_type TEXT NOT NULL DEFAULT ''").run()
        },
        Migration(version: 6, summary: "SDK call traces, for certification") { db, _ in
            try await db.raw("""
                CREATE TABLE IF NOT EXISTS census_trace (
                    session TEXT NOT NULL, seq BIGINT NOT NULL, appid TEXT NOT NULL, sdk TEXT NOT NULL,
                    received_at BIGINT NOT NULL, call_time DOUBLE PRECISION NOT NULL, call TEXT NOT NULL,
                    entry TEXT NOT NULL, PRIMARY KEY (session, seq))
                """).run()
            try await db.raw("CREATE INDEX IF NOT EXISTS census_trace_by_app ON census_trace (appid, call_time)").run()
        },
        Migration(version: 7, summary: "each session's span of creation times, in place of the index by session") { db, _ in
            try await SessionSpans.migrate(db)
        },
        Migration(version: 8, summary: "the ping ids each AMP page view's last replay stored") { db, _ in
            try await AMPReplayedPings.migrate(db)
        },
        Migration(version: 9, summary: "text compared byte by byte on PostgreSQL, as on SQLite") { db, _ in
            try await db.engine.makeTextByteOrdered(db)
        },
        Migration(version: 10, summary: "ping ids scoped to their app") { db, _ in
            try await BoundedStorageSchema.scopePingIDs(db)
        },
        Migration(version: 11, summary: "seconds over a ping's bound; an app's interval before a change") { db, _ in
            try await BoundedStorageSchema.addOverBoundSeconds(db)
        },
        Migration(version: 12, summary: "the app and size of each reject and trace entry, for their quotas") { db, _ in
            try await BoundedStorageSchema.addSizes(db)
        },
        Migration(version: 13, summary: "the census's key for signing certification exports") { db, _ in
            try await TraceStore.createSigningKeyTable(db)
        },
        Migration(version: 14, summary: "ping keys as <pingid>/<tag of the appid>, 53 bytes in place of about 75") { db, _ in
            try await PingKeySchema.compactPingKeys(db)
        },
        Migration(version: 15, summary: "each AMP page view's app and request times, for the sessions list by app") { db, _ in
            try await AMPReplayedPings.addAppAndTimes(db)
        },
        Migration(version: 16, summary: "call-trace entries keyed by session, app and number; their listed times held to their receipt") { db, _ in
            try await TraceKeySchema.keyByApp(db)
        },
        Migration(version: 17, summary: "each app's market, announced to its pages") { db, _ in
            try await AppStore.addMarket(db)
        },
        Migration(version: 18, summary: "pings partitioned by the week of their receipt, their keys apart (PostgreSQL)") { db, now in
            try await db.engine.pings.adopt(db, at: now * 1000)
        },
        Migration(version: 19, summary: "an index of tag pings, so that reports find a day's tags without reading its pings") { db, _ in
            try await db.raw("CREATE INDEX IF NOT EXISTS census_pings_tags ON census_pings (appid, created_at) WHERE \(unsafeRaw: CreditRule.isTagSQL)").run()
        },
    ]

    /// Applies the migrations the database has not seen yet, up to `lastVersion` (a test's
    /// database as an older census left it), in one transaction
    /// (``CensusDialect/inMigrationTransaction(_:_:)``): a migration stopped half-way leaves the
    /// schema as it was, and servers starting together migrate one after the other. Each is
    /// recorded as applied `at` (Unix seconds; the store's clock, ``PingStore/migrate()``).
    static func migrate(_ db: CensusSQL, through lastVersion: Int = .max,
                        at now: Int64 = SystemCensusClock().seconds()) async throws {
        try await db.engine.inMigrationTransaction(db) {
            try await applyMigrations(db, through: lastVersion, at: now)
        }
    }

    private static func applyMigrations(_ db: CensusSQL, through lastVersion: Int, at now: Int64) async throws {
        try await db.create(table: "census_migrations").ifNotExists()
            .column("version", type: .bigint, .primaryKey(autoIncrement: false))
            .column("applied_at", type: .bigint, .notNull)
            .run()
        let applied = try await db.select().column("version").from("census_migrations").all()
            .map { try $0.decode(column: "version", as: Int.self) }
        // A newer census's schema is not this one's to read or write (migration 14 changed what
        // a ping's key is): go back by restoring the backup taken before the upgrade.
        let known = migrations.map(\.version).max() ?? 0
        if let newest = applied.max(), newest > known {
            throw CensusError.schemaNewer(found: newest, known: known)
        }
        for migration in migrations where !applied.contains(migration.version) && migration.version <= lastVersion {
            try await migration.apply(db, now)
            try await db.insert(into: "census_migrations").columns("version", "applied_at")
                .values(migration.version, now)
                .ignoringConflicts(with: "version").run()
        }
    }
}
