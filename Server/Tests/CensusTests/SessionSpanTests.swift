@testable import CensusHTTP
@testable import CensusPostgres
@testable import CensusSQLite
@testable import CensusStore
@testable import MeterTables
import SQLKit
import Testing
import MeterContract

/// A session's pings are found through its spans of creation times (``SessionSpans``), which the
/// census writes before the pings, rather than through an index keyed by session.
@Suite struct SessionSpanTests {
    static func ping(_ id: String, _ session: String, at createdAt: Int64, appid: String = "PAPP") -> IncomingPing {
        IncomingPing(pingID: id, appID: appid, product: "dcr", pingType: "duration", kind: .content, assetID: "a",
                     creditedSeconds: 10, sessionID: session, deviceID: "d", optedOut: false, createdAt: createdAt,
                     rawQuery: "ci=\(id)")
    }

    /// The stored spans, as `session appid start...end`.
    static func spans(_ store: PingStore) async throws -> [String] {
        try await store.database.withSQL { db in
            try await db.select().columns("session_id", "appid", "starts_at", "ends_at").from("census_sessions")
                .orderBy("session_id").orderBy("appid").all()
                .map { row in
                    "\(try row.decode(column: "session_id", as: String.self)) \(try row.decode(column: "appid", as: String.self)) "
                        + "\(try row.decode(column: "starts_at", as: Int64.self))...\(try row.decode(column: "ends_at", as: Int64.self))"
                }
        }
    }

    /// A session's pings over hours and two apps, arriving late and mixed with another session's,
    /// come back in creation order (then arrival order), and no one else's.
    @Test(arguments: Backend.available)
    func aSessionsPingsAreFoundAcrossHoursAndApps(_ backend: Backend) async throws {
        try await backend.withStore { store in
            _ = try await store.insert([Self.ping("a", "s1", at: 10_000), Self.ping("x", "s2", at: 10_001),
                                        Self.ping("b", "s1", at: 12_000)], receivedAt: 1)
            _ = try await store.insert([Self.ping("c", "s1", at: 30_000), Self.ping("y", "s2", at: 30_000),
                                        Self.ping("z", "", at: 30_000)], receivedAt: 2)
            _ = try await store.insert([Self.ping("d", "s1", at: 5_000),
                                        Self.ping("e", "s1", at: 20_000, appid: "POTHER")], receivedAt: 3)
            _ = try await store.insert([Self.ping("f", "s1", at: 30_000)], receivedAt: 4)
            #expect(try await store.sessions.pings(session: "s1").map(\.pingID) == ["d", "a", "b", "e", "c", "f"])
            #expect(try await store.sessions.pings(session: "s2").map(\.pingID) == ["x", "y"])
            #expect(try await store.sessions.pings(session: "nobody").isEmpty)
            // Pings without a session id belong to no session.
            #expect(try await store.sessions.pings(session: "").isEmpty)
            #expect(try await Self.spans(store).count == 3)
        }
    }

    /// A span is rewritten only for a ping outside it, and then reaches an hour past that ping:
    /// a session's span is written about once an hour, not once a ping. A store that does not know
    /// the span (another server's) leaves it alone too.
    @Test(arguments: Backend.available)
    func aSpanIsWrittenOnlyForAPingOutsideIt(_ backend: Backend) async throws {
        try await backend.withStore { store in
            _ = try await store.insert([Self.ping("1", "s", at: 100)], receivedAt: 1)
            #expect(try await Self.spans(store) == ["s PAPP 100...3700"])
            let written = try await Self.rowVersions(store)
            let otherServer = PingStore(database: store.database)
            _ = try await otherServer.insert([Self.ping("2", "s", at: 200), Self.ping("3", "s", at: 3_700)], receivedAt: 2)
            #expect(try await Self.spans(store) == ["s PAPP 100...3700"])
            #expect(try await Self.rowVersions(store) == written)
            _ = try await store.insert([Self.ping("4", "s", at: 3_701)], receivedAt: 3)
            #expect(try await Self.spans(store) == ["s PAPP 100...7301"])
            _ = try await otherServer.insert([Self.ping("5", "s", at: 50)], receivedAt: 4)
            #expect(try await Self.spans(store) == ["s PAPP 50...7301"])
            #expect(try await store.sessions.pings(session: "s").map(\.pingID) == ["5", "1", "2", "3", "4"])
        }
    }

    /// A batch holding a ping already stored (a retry) is inserted again without it, and its
    /// spans with it: on PostgreSQL the spans are part of the batch's statement, which the stored
    /// ping failed the first time.
    @Test(arguments: Backend.available)
    func aRetriedBatchWritesItsSpans(_ backend: Backend) async throws {
        try await backend.withStore { store in
            _ = try await store.insert([Self.ping("a", "s1", at: 100)], receivedAt: 1)
            let stored = try await store.insert([Self.ping("c", "s1", at: 90_000), Self.ping("a", "s1", at: 100),
                                                 Self.ping("b", "s2", at: 200)], receivedAt: 2)
            #expect(stored == [PingKey.scoped(appID: "PAPP", pingID: "b"), PingKey.scoped(appID: "PAPP", pingID: "c")])
            #expect(try await Self.spans(store) == ["s1 PAPP 100...93600", "s2 PAPP 200...3800"])
            #expect(try await store.sessions.pings(session: "s1").map(\.pingID) == ["a", "c"])
            #expect(try await store.sessions.pings(session: "s2").map(\.pingID) == ["b"])
        }
    }

    /// The cache of known spans: a ping needs its span written unless a remembered span holds
    /// its creation time; what it remembers is the hull of what was written; past its capacity it
    /// starts over.
    @Test func theCacheSkipsOnlyCoveredPings() {
        let cache = SessionSpanCache()
        func needs(_ pings: [IncomingPing]) -> [String] {
            cache.uncoveredNeeds(of: pings).map { "\($0.session) \($0.appid) \($0.first)...\($0.last)" }.sorted()
        }
        #expect(needs([Self.ping("1", "s", at: 100), Self.ping("2", "s", at: 200), Self.ping("3", "", at: 5)]) == ["s PAPP 100...200"])
        cache.remember([SessionSpans.Need(session: "s", appid: "PAPP", first: 100, last: 200)])
        #expect(needs([Self.ping("4", "s", at: 150), Self.ping("5", "s", at: 3_800)]) == [])
        #expect(needs([Self.ping("6", "s", at: 150, appid: "POTHER"), Self.ping("7", "s", at: 99), Self.ping("8", "s", at: 3_801),
                       Self.ping("9", "s", at: 3_000)]) == ["s PAPP 99...3801", "s POTHER 150...150"])
        cache.remember([SessionSpans.Need(session: "s", appid: "PAPP", first: 99, last: 99),
                        SessionSpans.Need(session: "s", appid: "PAPP", first: 5_000, last: 5_000)])
        #expect(needs([Self.ping("10", "s", at: 99), Self.ping("11", "s", at: 8_600)]) == [])
        #expect(SessionSpans.Need(session: "s", appid: "A", first: 0, last: .max - 1).end == .max)
        // Session ids and app ids are whatever a ping said: no pair of them stands for another.
        #expect(needs([Self.ping("12", "a\u{0}b", at: 1, appid: "c"), Self.ping("13", "a", at: 2, appid: "b\u{0}c")]).count == 2)
        cache.remember((0..<(SessionSpanCache.capacity - 1)).map {
            SessionSpans.Need(session: "s\($0)", appid: "A", first: 0, last: 0)
        })
        #expect(cache.count == SessionSpanCache.capacity)
        cache.remember([SessionSpans.Need(session: "t", appid: "A", first: 0, last: 0)])
        #expect(cache.count == 1)
    }

    /// A Google AMP replay rewrites its session's pings: one moved in time is still found, and
    /// one the replay no longer builds is deleted.
    @Test(arguments: Backend.available)
    func aReplayedSessionsPingsAreMovedAndDeleted(_ backend: Backend) async throws {
        try await backend.withStore { store in
            func replace(_ pings: [IncomingPing]) async throws {
                try await store.database.withSQL { try await AMPStore.replacePings(of: "amp-1", appid: "PAPP", with: pings, receivedAt: 1, requests: 0...0, isFirst: false, $0) }
            }
            try await replace([Self.ping("amp-1-1", "amp-1", at: 100), Self.ping("amp-1-2", "amp-1", at: 200)])
            try await replace([Self.ping("amp-1-1", "amp-1", at: 99_999), Self.ping("amp-1-2", "amp-1", at: 200)])
            #expect(try await store.sessions.pings(session: "amp-1").map { "\($0.pingID) \($0.createdAt)" } == ["amp-1-2 200", "amp-1-1 99999"])
            try await replace([Self.ping("amp-1-2", "amp-1", at: 200)])
            #expect(try await store.sessions.pings(session: "amp-1").map(\.pingID) == ["amp-1-2"])
            try await replace([])
            #expect(try await store.counts().pings == 0)
        }
    }

    /// A page view last replayed by a census that did not record its pings' ids (before schema 8)
    /// still loses the pings its next replay no longer builds: found through its spans, once.
    @Test(arguments: Backend.available)
    func aPageViewReplayedBeforeItsIDsWereRecordedLosesItsStalePings(_ backend: Backend) async throws {
        try await backend.withStore { store in
            try await store.database.withSQL { db in
                try await AMPStore.replacePings(of: "amp-2", appid: "PAPP", with: [Self.ping("amp-2-1", "amp-2", at: 100),
                                                                     Self.ping("amp-2-2", "amp-2", at: 200)], receivedAt: 1,
                                                   requests: 0...0, isFirst: false, db)
                #expect(try await AMPReplayedPings.ids(of: "amp-2", db) == [PingKey.scoped(appID: "PAPP", pingID: "amp-2-1"), PingKey.scoped(appID: "PAPP", pingID: "amp-2-2")])
                try await db.delete(from: "census_amp_page_views").run()
                try await AMPStore.replacePings(of: "amp-2", appid: "PAPP", with: [Self.ping("amp-2-2", "amp-2", at: 200)], receivedAt: 2,
                                                   requests: 0...0, isFirst: false, db)
                #expect(try await AMPReplayedPings.ids(of: "amp-2", db) == [PingKey.scoped(appID: "PAPP", pingID: "amp-2-2")])
            }
            #expect(try await store.sessions.pings(session: "amp-2").map(\.pingID) == ["amp-2-2"])
        }
    }

    /// `created_at` is whatever a ping said: the first and last times there are are stored and
    /// found, without overflowing a span's end.
    @Test(arguments: Backend.available)
    func theExtremeCreationTimesAreFound(_ backend: Backend) async throws {
        try await backend.withStore { store in
            let stored = try await store.insert([Self.ping("late", "edge", at: .max), Self.ping("early", "edge", at: .min)],
                                                receivedAt: 1)
            #expect(stored == [PingKey.scoped(appID: "PAPP", pingID: "late"), PingKey.scoped(appID: "PAPP", pingID: "early")])
            #expect(try await store.sessions.pings(session: "edge").map(\.pingID) == ["early", "late"])
        }
    }

    /// A census upgraded from schema 6 (the index by session) finds the pings it stored before.
    @Test(arguments: Backend.available)
    func pingsStoredBeforeTheMigrationAreFound(_ backend: Backend) async throws {
        try await backend.withOpenDatabase { database in
            try await database.withSQL { try await Schema.migrate($0, through: 6) }
            let store = PingStore(database: database)
            #expect(try await Self.pingIndexes(store) == ["census_pings_by_app", "census_pings_by_session"])
            // As the census of schema 6 stored them: the pings alone, under their unscoped ids.
            try await database.insertAsOlderSchema([Self.ping("a", "s1", at: 100), Self.ping("b", "s1", at: 90_000),
                                                    Self.ping("c", "s2", at: 500), Self.ping("d", "", at: 7)], receivedAt: 1)
            try await store.migrate()
            #expect(try await Self.pingIndexes(store) == ["census_pings_by_app"])
            #expect(try await Self.spans(store) == ["s1 PAPP 100...90000", "s2 PAPP 500...500"])
            #expect(try await store.sessions.pings(session: "s1").map(\.pingID) == ["a", "b"])
            _ = try await store.insert([Self.ping("e", "s1", at: 90_001)], receivedAt: 2)
            #expect(try await store.sessions.pings(session: "s1").map(\.pingID) == ["a", "b", "e"])
            // Scoped to their app by the migration: a ping delivered again is still a duplicate.
            #expect(try await store.insert([Self.ping("a", "s1", at: 100)], receivedAt: 3).isEmpty)
        }
    }

    /// On PostgreSQL, the transaction that last wrote or locked each span (`xmin`, `xmax`): an
    /// upsert that only finds its span covers the pings would still lock (write) it.
    static func rowVersions(_ store: PingStore) async throws -> [String] {
        try await store.database.withSQL { db in
            guard db.dialect.name == "postgresql" else { return [] }
            return try await db.raw("SELECT xmin::text || ' ' || xmax::text AS version FROM census_sessions ORDER BY session_id").all()
                .map { try $0.decode(column: "version", as: String.self) }
        }
    }

    /// The names of `census_pings`'s own indexes (not its primary key's).
    static func pingIndexes(_ store: PingStore) async throws -> [String] {
        try await store.database.withSQL { db in
            let names = db.dialect.name == "postgresql"
                ? "SELECT indexname AS name FROM pg_indexes WHERE tablename = 'census_pings'"
                : "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'census_pings'"
            return try await db.raw(SQLQueryString(names)).all()
                .map { try $0.decode(column: "name", as: String.self) }
                .filter { $0.hasPrefix("census_pings_by") }.sorted()
        }
    }
}
