@testable import CensusHTTP
@testable import CensusPostgres
@testable import CensusSQLite
@testable import CensusStore
@testable import MeterTables
import Logging
import NIOConcurrencyHelpers
import SQLKit
import Testing

/// The census vacuums what it appended while it is in PostgreSQL's buffers
/// (``PostgresAppendVacuum``, census-decisions.md S16): after every so many rows, one vacuum of a table
/// at a time, none once closed, and a failure only logged.
@Suite struct PostgresAppendVacuumTests {
    /// Records each vacuum started; each waits for `gate` when one is given, and fails when told.
    final class Vacuums: Sendable {
        struct Failure: Error {}
        let started = NIOLockedValueBox<[PostgresAppendVacuum.Table]>([])
        let gate: Gate?
        let failing: Bool

        init(gate: Gate? = nil, failing: Bool = false) {
            self.gate = gate
            self.failing = failing
        }

        func vacuum(every rows: Int) -> PostgresAppendVacuum {
            PostgresAppendVacuum(rowsPerVacuum: rows, logger: Logger(label: "test")) { [self] table in
                started.withLockedValue { $0.append(table) }
                await gate?.wait()
                if failing { throw Failure() }
            }
        }
    }

    @Test func aTableIsVacuumedOnceEnoughRowsWereAppendedToIt() async {
        let vacuums = Vacuums()
        let vacuum = vacuums.vacuum(every: 100)
        vacuum.appended(60, to: .pings)
        vacuum.appended(39, to: .pings)
        vacuum.appended(99, to: .rejects)
        await vacuum.waitForRunning()
        #expect(vacuums.started.withLockedValue { $0 }.isEmpty)
        vacuum.appended(1, to: .pings)
        await vacuum.waitForRunning()
        #expect(vacuums.started.withLockedValue { $0 } == [.pings])
        vacuum.appended(99, to: .pings)
        vacuum.appended(1, to: .rejects)
        await vacuum.waitForRunning()
        #expect(vacuums.started.withLockedValue { $0 } == [.pings, .rejects])
        #expect(vacuum.completed == [.pings: 1, .rejects: 1])
    }

    @Test func oneVacuumOfATableRunsAtATimeAndTheRowsAppendedMeanwhileCount() async {
        let gate = Gate()
        let vacuums = Vacuums(gate: gate)
        let vacuum = vacuums.vacuum(every: 10)
        vacuum.appended(10, to: .pings)
        // Thirty more rows while the first vacuum runs: no second one alongside it.
        for _ in 0..<3 { vacuum.appended(10, to: .pings) }
        gate.open()
        await vacuum.waitForRunning()
        #expect(vacuums.started.withLockedValue { $0 } == [.pings])
        // Those rows are still owed a vacuum: the next append starts it.
        vacuum.appended(1, to: .pings)
        await vacuum.waitForRunning()
        #expect(vacuums.started.withLockedValue { $0 } == [.pings, .pings])
    }

    @Test func aFailedVacuumIsCountedAndTheNextThresholdTriesAgain() async {
        let vacuums = Vacuums(failing: true)
        let vacuum = vacuums.vacuum(every: 5)
        vacuum.appended(5, to: .rejects)
        await vacuum.waitForRunning()
        vacuum.appended(5, to: .rejects)
        await vacuum.waitForRunning()
        #expect(vacuum.completed == [.rejects: 2])
    }

    @Test func closeWaitsForARunningVacuumAndStartsNoMore() async {
        let gate = Gate()
        let vacuums = Vacuums(gate: gate)
        let vacuum = vacuums.vacuum(every: 1)
        vacuum.appended(1, to: .pings)
        let closing = Task { await vacuum.close() }
        gate.open()
        await closing.value
        #expect(vacuum.completed == [.pings: 1])
        vacuum.appended(5, to: .pings)
        await vacuum.waitForRunning()
        #expect(vacuums.started.withLockedValue { $0 } == [.pings])
    }
}

@Suite(.enabled(if: Backend.postgresURL != nil, "needs APPMETER_TEST_POSTGRES_URL"))
struct PostgresAppendVacuumServerTests {
    @Test func pingsAppendedPastTheThresholdAreVacuumedAndMarkedAllVisible() async throws {
        try await Backend.postgres.withFreshDatabase { location in
            guard case .postgres(let url) = location else {
                Issue.record("a PostgreSQL test database is not a PostgreSQL location")
                return
            }
            let database = try PostgresCensusDatabase(url: url, logger: Logger(label: "test"), rowsPerVacuum: 20)
            let store = PingStore(database: database)
            do {
                try await store.migrate()
                let pings = try (0..<30).map { index in
                    let query = PingQueries.valid(pingID: "vacuum-\(index)")
                    return try PingValidator.validate(query: Substring(query), uriLength: query.utf8.count).get()
                }
                _ = try await store.insert(pings, receivedAt: 1)
                await database.appendVacuum.waitForRunning()
                // The partition the pings went to, and their keys (census-decisions.md S53).
                let visible = try await database.withSQL { sql in
                    try await sql.raw("""
                        SELECT relname::text AS name, relallvisible FROM pg_class
                        WHERE oid IN ((SELECT tableoid FROM census_pings LIMIT 1), 'census_ping_keys'::regclass)
                        """).all().map { (try $0.decode(column: "name", as: String.self), try $0.decode(column: "relallvisible", as: Int.self)) }
                }
                #expect(database.appendVacuum.completed == [.pings: 1])
                #expect(visible.count == 2 && visible.allSatisfy { $0.1 > 0 }, "\(visible)")
            } catch {
                await database.close()
                throw error
            }
            await database.close()
        }
    }
}
