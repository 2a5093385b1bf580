@testable import CensusHTTP
@testable import CensusPostgres
@testable import CensusStore
import Hummingbird
import Logging
import PostgresNIO
import SQLKit
import Testing

/// A PostgreSQL write is reported stored only once its `COMMIT` is answered (census-decisions.md
/// S48): a commit refused or left unanswered after PostgreSQL answered the insert itself is not
/// taken as done. A deferred trigger makes the commit, not the insert, refuse or wait.
@Suite(.enabled(if: Backend.postgresURL != nil, "needs APPMETER_TEST_POSTGRES_URL"))
struct PostgresCommitTests {
    /// `table` with a trigger that runs `action` (PL/pgSQL) at each commit that inserted a row in it.
    func atCommit(_ action: String, on database: any CensusDatabase, table: String = "census_pings") async throws {
        try await database.withSQL { db in
            try await db.raw(SQLQueryString("""
                CREATE FUNCTION appmeter_test_at_commit() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN \(unsafeRaw: action); RETURN NULL; END $$
                """)).run()
            try await db.raw("""
                CREATE CONSTRAINT TRIGGER appmeter_test_at_commit AFTER INSERT ON \(unsafeRaw: table)
                DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION appmeter_test_at_commit()
                """).run()
        }
    }

    /// A migrated store on a fresh database whose pings run `action` at commit (``atCommit(_:on:table:)``).
    func withPingsCommitting(_ action: String, _ body: (PingStore, PostgresCensusDatabase) async throws -> Void) async throws {
        try await Backend.postgres.withOpenDatabase { database in
            let store = PingStore(database: database)
            try await store.migrate()
            try await atCommit(action, on: database)
            try await body(store, try #require(database as? PostgresCensusDatabase))
        }
    }

    func dropTrigger(on database: any CensusDatabase, table: String = "census_pings") async throws {
        try await database.withSQL { try await $0.raw("DROP TRIGGER appmeter_test_at_commit ON \(unsafeRaw: table)").run() }
    }

    /// The ping each test stores.
    static let ping = SessionSpanTests.ping("p1", "s1", at: 100)

    func storedPings(in database: any CensusDatabase) async throws -> Int {
        try await database.withSQL { db in
            try await db.raw("SELECT COUNT(*) AS n FROM census_pings").first(decoding: Row.self)?.n ?? -1
        }
    }

    struct Row: Decodable { var n: Int }

    /// The insert is answered, and its commit refused: the batch fails, and nothing is stored,
    /// whether the writer holds a connection of its own or takes one from the pool.
    @Test(arguments: [true, false])
    func aCommitRefusedAfterTheInsertWasAnsweredStoresNothingAndSaysSo(_ ownConnection: Bool) async throws {
        try await withPingsCommitting("RAISE EXCEPTION 'refused at commit'") { store, postgres in
            let database: any CensusDatabase = postgres
            var thrown: (any Error)?
            if ownConnection {
                await postgres.writerConnections.withConnection { connection in
                    #expect(connection != nil)
                    do { _ = try await store.insert([Self.ping], receivedAt: 1, with: PostgresBatchWriter(database: postgres, connection: connection)) }
                    catch { thrown = error }
                }
            } else {
                do { _ = try await store.insert([Self.ping], receivedAt: 1) } catch { thrown = error }
            }
            let error = try #require(thrown as? CensusError)
            guard case .storageUnavailable(let reason) = error else { Issue.record("\(error)"); return }
            #expect(reason.contains("refused at commit"))
            #expect(try await storedPings(in: database) == 0)
            try await dropTrigger(on: database)
            #expect(try await store.insert([Self.ping], receivedAt: 2).count == 1, "the retry is stored, not a duplicate")
        }
    }

    /// The connection is lost while PostgreSQL commits: the batch fails as unconfirmed (answered
    /// "may have stored this"), the commit completes on the server, and the retry is a duplicate.
    /// The commit's trigger waits for a lock the test holds until the connection is cut.
    @Test func aCommitWhoseConnectionIsLostIsUnconfirmedAndItsRetryADuplicate() async throws {
        try await withPingsCommitting("PERFORM pg_advisory_xact_lock(\(Self.commitLock))") { store, postgres in
            let database: any CensusDatabase = postgres
            let failure = try await database.withSQL { db -> (any Error)? in
                var failure: (any Error)?
                try await db.raw("SELECT pg_advisory_lock(\(unsafeRaw: String(Self.commitLock)))").run()
                await postgres.writerConnections.withConnection { connection in
                    guard let connection else { return }
                    let writer = PostgresBatchWriter(database: postgres, connection: connection)
                    let insert = Task { try await store.insert([Self.ping], receivedAt: 1, with: writer) }
                    // Until the commit waits for the lock (bounded: 30 s), then the connection is cut.
                    for _ in 0..<600 where (try? await commitsWaiting(db)) == 0 {
                        try? await Task.sleep(for: .milliseconds(50))
                    }
                    #expect((try? await commitsWaiting(db)) == 1)
                    try? await connection.close()
                    do { _ = try await insert.value } catch { failure = error }
                }
                try await db.raw("SELECT pg_advisory_unlock(\(unsafeRaw: String(Self.commitLock)))").run()
                return failure
            }
            let error = try #require(failure as? CensusError)
            guard case .commitUnconfirmed = error else { Issue.record("\(error)"); return }
            #expect(error.reply.status == .serviceUnavailable)
            #expect(error.reply.text.contains("may have stored this"))
            for _ in 0..<600 where try await storedPings(in: database) == 0 {
                try await Task.sleep(for: .milliseconds(50))
            }
            try await dropTrigger(on: database)
            #expect(try await store.insert([Self.ping], receivedAt: 2).isEmpty, "the retry is a duplicate")
            #expect(try await storedPings(in: database) == 1)
        }
    }

    /// The advisory lock the commit's trigger waits for.
    static let commitLock = 4_815_162_342

    /// The sessions of this test's database waiting for ``commitLock``.
    func commitsWaiting(_ db: CensusSQL) async throws -> Int {
        try await db.raw("""
            SELECT COUNT(*) AS n FROM pg_locks JOIN pg_database ON pg_database.oid = pg_locks.database
            WHERE pg_locks.locktype = 'advisory' AND NOT pg_locks.granted AND pg_database.datname = current_database()
            """).first(decoding: Row.self)?.n ?? -1
    }

    /// A write through the shared SQL (an app's settings, as `meter apps set` and the API write
    /// them) whose commit is refused fails, and leaves the settings as they were.
    @Test func aSharedWriteWhoseCommitIsRefusedFailsAndChangesNothing() async throws {
        try await Backend.postgres.withStore { store in
            try await atCommit("RAISE EXCEPTION 'refused at commit'", on: store.database, table: "census_apps")
            await #expect(throws: CensusError.self) {
                try await store.apps.setSettings(AppSettings(enabled: true, durationPingInterval: 30), for: "PAPP")
            }
            #expect(try await store.apps.app("PAPP") == nil)
        }
    }
}
