import CensusStore
import PostgresNIO
import SQLKit

/// PostgreSQL's pings (census-decisions.md S53): `census_pings` partitioned by the week of
/// `received_at` (``PingWeek``), so that retention drops whole weeks instead of deleting rows one
/// by one, plus `census_pings_default` for a receipt outside every week made (a clock set far
/// ahead, upkeep that fell behind): no ping is ever refused for want of a partition.
///
/// A partitioned table is unique only on keys that hold the partition's column, and a retry is
/// received later than its first delivery, often in another week; so the keys live in the
/// unpartitioned `census_ping_keys` (key and receipt, some 190 bytes a ping with its index), claimed in the same
/// statement as the pings are written (``PingBatchColumns/insertSQL(spans:skippingStored:)``).
/// A ping's row is unique on its receipt and key, the key's receipt; a ping is looked up by key
/// through its receipt (``rows(withKeys:_:)``).
///
/// Statements that need a lock on `census_pings` as a whole (attaching and detaching a week)
/// give up after ``lockTimeout`` and are tried again at the next round of upkeep: a report
/// reading the table holds such a lock off, and the census's inserts queue behind the waiting one.
struct WeeklyPingPartitions: PingLayout {
    let conflictTarget = ["received_at", "ping_id"]

    /// Weeks made ahead of the current one, so that a census whose upkeep stops for a while still
    /// writes into weeks.
    static let weeksAhead = 2
    /// How long attaching or detaching a week waits for the lock on `census_pings`.
    static let lockTimeout = "500ms"
    /// At most this many weeks (about four years) are made for an existing database's pings when
    /// it is partitioned, the most recent ones, in the migration's one transaction, whose locks
    /// (some five a week) must fit PostgreSQL's lock table; older pings go to the default partition.
    static let weeksAdopted = 200
    /// PostgreSQL's SQLSTATE for a lock not granted within `lock_timeout`.
    static let lockNotAvailable = "55P03"
    /// PostgreSQL's SQLSTATE for a table that does not exist.
    static let undefinedTable = "42P01"
    /// The key every server's partition work holds, so that two do not make or drop one week at once.
    private static let lockKey = "appmeter census ping partitions"

    func adopt(_ db: CensusSQL, at nowMilliseconds: Int64) async throws {
        let kind = try await db.raw("SELECT relkind::text AS kind FROM pg_class WHERE oid = to_regclass('census_pings')")
            .first()?.decode(column: "kind", as: String.self)
        guard kind == "r" else { return }
        try await db.raw("ALTER TABLE census_pings RENAME TO census_pings_unpartitioned").run()
        try await db.raw("ALTER INDEX IF EXISTS census_pings_pkey RENAME TO census_pings_unpartitioned_pkey").run()
        try await db.raw("ALTER INDEX IF EXISTS census_pings_by_app RENAME TO census_pings_unpartitioned_by_app").run()
        // The columns as schema 17 left them: types, collations (``ByteOrderedText``), defaults.
        try await db.raw("""
            CREATE TABLE census_pings (LIKE census_pings_unpartitioned INCLUDING DEFAULTS) PARTITION BY RANGE (received_at)
            """).run()
        // Receipt first: each insert lands at the index's end, where the key first scattered
        // them over a second index as random as the keys' own (census-decisions.md S53).
        try await db.raw("ALTER TABLE census_pings ADD PRIMARY KEY (received_at, ping_id)").run()
        try await db.raw("CREATE INDEX census_pings_by_app ON census_pings (appid, created_at)").run()
        try await db.raw("CREATE TABLE census_pings_default PARTITION OF census_pings DEFAULT").run()
        try await db.raw("""
            CREATE TABLE census_ping_keys (ping_id TEXT COLLATE "C" NOT NULL PRIMARY KEY, received_at BIGINT NOT NULL)
            """).run()
        // By day, which a week's partition holds whole (a receipt before 1970 may go to the default).
        let held = try await db.raw("SELECT DISTINCT received_at / 86400000 AS day FROM census_pings_unpartitioned")
            .all().map { PingWeek(containing: try $0.decode(column: "day", as: Int64.self) * 86_400_000) }
        var weeks = Set(held).sorted(by: >).prefix(Self.weeksAdopted).map { $0 }
        let now = PingWeek(containing: nowMilliseconds)
        weeks += (0...Self.weeksAhead).map { now.advanced(by: $0) }
        for week in Set(weeks).sorted() {
            try await Self.make(week, db)
        }
        try await db.raw("INSERT INTO census_pings SELECT * FROM census_pings_unpartitioned").run()
        try await db.raw("""
            INSERT INTO census_ping_keys (ping_id, received_at) SELECT ping_id, received_at FROM census_pings_unpartitioned
            """).run()
        try await db.raw("DROP TABLE census_pings_unpartitioned").run()
        // The planner's statistics of the whole table, which autovacuum gathers only per week.
        try await db.raw("ANALYZE census_pings").run()
    }

    func prepare(_ db: CensusSQL, at nowMilliseconds: Int64) async throws {
        let now = PingWeek(containing: nowMilliseconds)
        let wanted = (0...Self.weeksAhead).map { now.advanced(by: $0) }
        let attached = try await Self.attachedWeeks(db)
        guard wanted.contains(where: { !attached.contains($0) }) else { return }
        try await db.engine.inTransactionHoldingLock(on: Self.lockKey, db) {
            try await db.raw("SET LOCAL lock_timeout = '\(unsafeRaw: Self.lockTimeout)'").run()
            let attached = try await Self.attachedWeeks(db)
            for week in wanted where !attached.contains(week) {
                try await Self.make(week, db)
            }
        }
    }

    /// Detaches the weeks wholly before the week of `cutoff`, then releases their keys and drops
    /// them; deletes the default partition's pings before that week. A week detached and not yet
    /// dropped (a census stopped meanwhile) is finished first, so no key outlives its ping for
    /// long. Returns the keys released: the pings removed.
    func prune(before cutoff: Int64, _ db: CensusSQL) async throws -> Int {
        let boundary = PingWeek(containing: cutoff)
        for week in try await Self.attachedWeeks(db) where week.end <= boundary.start {
            do {
                try await db.engine.inTransactionHoldingLock(on: Self.lockKey, db) {
                    try await db.raw("SET LOCAL lock_timeout = '\(unsafeRaw: Self.lockTimeout)'").run()
                    guard try await Self.attachedWeeks(db).contains(week) else { return }
                    try await db.raw("ALTER TABLE census_pings DETACH PARTITION \(ident: week.partitionName)").run()
                }
            } catch let error as PSQLError where error.serverInfo?[.sqlState] == Self.lockNotAvailable {
                // A reader held `census_pings` past the timeout: this week waits for the next round.
                continue
            }
        }
        var removed = 0
        while true {
            let gone = try await db.raw("""
                DELETE FROM census_pings_default WHERE ctid IN
                  (SELECT ctid FROM census_pings_default WHERE received_at < \(bind: boundary.start) LIMIT 5000)
                RETURNING ping_id, received_at
                """).all().map { (key: try $0.decode(column: "ping_id", as: String.self), receipt: try $0.decode(column: "received_at", as: Int64.self)) }
            try await release(gone, db)
            removed += gone.count
            if gone.count < 5000 { break }
        }
        for name in try await Self.detachedWeeks(db) {
            do {
                removed += try await Self.releaseKeys(of: name, db)
                try await db.raw("DROP TABLE IF EXISTS \(ident: name)").run()
            } catch let error as PSQLError where error.serverInfo?[.sqlState] == Self.undefinedTable {
                // Another census dropped it meanwhile, its keys released.
                continue
            }
        }
        return removed
    }

    func claim(_ keys: [String], receivedAt: Int64, _ db: CensusSQL) async throws -> [String: Int64] {
        var receipts: [String: Int64] = [:]
        for chunk in Self.chunks(of: keys) {
            // One statement claims each key or, claimed before, locks it and returns its receipt,
            // so no release can come between the claim and the row's upsert.
            var insert = db.insert(into: "census_ping_keys").columns("ping_id", "received_at")
            for key in Set(chunk).sorted() { insert = insert.values(key, receivedAt) }
            let rows = try await insert.onConflict(with: ["ping_id"]) { $0.set("received_at", to: SQLColumn("received_at", table: "census_ping_keys")) }
                .returning("ping_id", "received_at").all()
            for row in rows {
                receipts[try row.decode(column: "ping_id", as: String.self)] = try row.decode(column: "received_at", as: Int64.self)
            }
        }
        guard keys.allSatisfy({ receipts[$0] != nil }) else { throw CensusError.storageUnavailable(reason: "a ping key was claimed without its receipt") }
        return receipts
    }

    /// `(ping_id = $1 AND received_at = $2) OR …`, the receipts read from the keys first: the
    /// primary key `(received_at, ping_id)` answers it in the one week each receipt is in.
    func rows(withKeys keys: [String], _ db: CensusSQL) async throws -> any SQLExpression {
        guard !keys.isEmpty else { return SQLRaw("1 = 0") }
        let stored = try await db.select().columns("ping_id", "received_at").from("census_ping_keys")
            .where("ping_id", .in, keys).all()
            .map { (try $0.decode(column: "ping_id", as: String.self), try $0.decode(column: "received_at", as: Int64.self)) }
        return Self.either(stored)
    }

    /// `(received_at = $1 AND ping_id = $2) OR …`, false for none.
    private static func either(_ rows: [(String, Int64)]) -> any SQLExpression {
        guard !rows.isEmpty else { return SQLRaw("1 = 0") }
        return SQLGroupExpression(SQLList(rows.map { key, receipt in
            SQLGroupExpression(SQLBinaryExpression(
                SQLBinaryExpression(SQLColumn("received_at"), .equal, SQLBind(receipt)), .and,
                SQLBinaryExpression(SQLColumn("ping_id"), .equal, SQLBind(key))))
        }, separator: SQLRaw(" OR ")))
    }

    func release(_ rows: [(key: String, receipt: Int64)], _ db: CensusSQL) async throws {
        for start in stride(from: 0, to: rows.count, by: 500) {
            let chunk = rows[start..<min(start + 500, rows.count)]
            try await db.delete(from: "census_ping_keys").where(Self.either(chunk.map { ($0.key, $0.receipt) })).run()
        }
    }

    /// Makes `week`'s partition: an empty table with the pings' columns, filled with the default
    /// partition's pings of that week (emptied of them), then attached, which builds its indexes
    /// and checks its rows and the default partition's. A week already made is left alone.
    private static func make(_ week: PingWeek, _ db: CensusSQL) async throws {
        let name = week.partitionName
        guard try await db.raw("SELECT to_regclass(\(bind: name))::text AS found").first()?
            .decode(column: "found", as: String?.self) == nil else { return }
        try await db.raw("CREATE TABLE \(ident: name) (LIKE census_pings INCLUDING DEFAULTS)").run()
        // Moved in one statement, whose one snapshot deletes exactly what it copies: a ping
        // committed meanwhile stays in the default partition, and the attach below then fails
        // its check and rolls everything back, to be made at a later round.
        try await db.raw("""
            WITH moved AS (DELETE FROM census_pings_default
                           WHERE received_at >= \(unsafeRaw: String(week.start)) AND received_at < \(unsafeRaw: String(week.end))
                           RETURNING *)
            INSERT INTO \(ident: name) SELECT * FROM moved
            """).run()
        try await db.raw("""
            ALTER TABLE census_pings ATTACH PARTITION \(ident: name) FOR VALUES FROM (\(unsafeRaw: String(week.start))) TO (\(unsafeRaw: String(week.end)))
            """).run()
    }

    /// The weeks attached to `census_pings`.
    private static func attachedWeeks(_ db: CensusSQL) async throws -> Set<PingWeek> {
        Set(try await db.raw("""
            SELECT c.relname::text AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
            WHERE i.inhparent = 'census_pings'::regclass
            """).all().compactMap { PingWeek(partitionName: try $0.decode(column: "name", as: String.self)) })
    }

    /// The weeks detached by a prune and not dropped yet.
    private static func detachedWeeks(_ db: CensusSQL) async throws -> [String] {
        try await db.raw("""
            SELECT relname::text AS name FROM pg_class
            WHERE relkind = 'r' AND NOT relispartition AND pg_table_is_visible(oid)
              AND starts_with(relname::text, \(bind: PingWeek.namePrefix))
            """).all().map { try $0.decode(column: "name", as: String.self) }
            .filter { PingWeek(partitionName: $0) != nil }
    }

    /// Deletes the keys of a detached week's pings, a range of its pages at a time: each
    /// statement reads those pages alone (a scan by row position), so a week of millions of
    /// pings goes in bounded steps. Run again over a week partly done, it deletes what is left.
    private static func releaseKeys(of name: String, _ db: CensusSQL) async throws -> Int {
        let pages = try await db.raw("""
            SELECT (pg_relation_size(\(bind: name)::regclass) / current_setting('block_size')::bigint)::bigint AS pages
            """).first()?.decode(column: "pages", as: Int64.self) ?? 0
        var released = 0
        var first: Int64 = 0
        while first < pages {
            let last = first + pagesPerStep
            released += try await db.raw("""
                DELETE FROM census_ping_keys WHERE (ping_id, received_at) IN
                  (SELECT ping_id, received_at FROM \(ident: name)
                   WHERE ctid >= '(\(unsafeRaw: String(first)),0)'::tid AND ctid < '(\(unsafeRaw: String(last)),0)'::tid)
                RETURNING 1 AS released
                """).all().count
            first = last
        }
        return released
    }

    /// About 8 MB of a week's pages per statement.
    private static let pagesPerStep: Int64 = 1_024

    /// `keys` in lists of at most 1,000, each bound as its own parameters.
    private static func chunks(of keys: [String]) -> [ArraySlice<String>] {
        stride(from: 0, to: keys.count, by: 1_000).map { keys[$0..<min($0 + 1_000, keys.count)] }
    }
}
