import CensusStore
import Logging
import NIOConcurrencyHelpers

/// Vacuums the census's append-only tables while the pages it appended are still in
/// PostgreSQL's buffers.
///
/// `census_pings` and `census_rejects` only grow. PostgreSQL's autovacuum visits a database at
/// most once a minute (`autovacuum_naptime`), and by then, at 15,000 pings a second, a gigabyte of
/// new pages has left its buffers: its first vacuum of a freshly filled table read 560 MB back
/// and wrote all of it a second time (hint bits and the visibility map), and the 64-connection
/// round it ran through had a p99 of 60–115 ms instead of 10–16 (docs/performance.md,
/// census-decisions.md S16). Vacuumed after every ``rowsPerVacuum`` appended rows, the pages are found
/// in the buffers, dirty anyway: nothing is read back and nothing is written twice. `FREEZE`
/// marks them all-frozen too, so that no anti-wraparound vacuum has to read them again later;
/// `SKIP_LOCKED`, because when autovacuum or another census server is vacuuming the table, that
/// is as good, and waiting for it is not.
///
/// Driven by the rows the writers append, not by a timer: a census that receives little leaves
/// its tables to autovacuum, as their pages stay in the buffers for long anyway.
final class PostgresAppendVacuum: Sendable {
    /// The tables the census only appends to.
    enum Table: String, Sendable, CaseIterable {
        case pings = "census_pings"
        case rejects = "census_rejects"
    }

    /// About 30 MB of `census_pings` (a row takes some 1.2 KB with its indexes' entries): under
    /// half of PostgreSQL's default 128 MB of buffers, so the pages are still there.
    static let defaultRowsPerVacuum = 25_000

    /// Rows appended to a table between two vacuums of it.
    let rowsPerVacuum: Int
    private let vacuum: @Sendable (Table) async throws -> Void
    private let logger: Logger
    private let state = NIOLockedValueBox(State())

    private struct State {
        var appended: [Table: Int] = [:]
        var running: [Table: Task<Void, Never>] = [:]
        var completed: [Table: Int] = [:]
        var closed = false
    }

    /// `vacuum` vacuums a table's tables (``tables(for:at:)``); injected, so that when to
    /// vacuum can be tested without a server.
    init(rowsPerVacuum: Int = defaultRowsPerVacuum, logger: Logger, vacuum: @escaping @Sendable (Table) async throws -> Void) {
        self.rowsPerVacuum = rowsPerVacuum
        self.logger = logger
        self.vacuum = vacuum
    }

    /// The tables to vacuum for `table`: of the pings, the week of `nowMilliseconds` (where the
    /// writers append), the default partition and the keys, which grow with them
    /// (census-decisions.md S53); vacuuming the partitioned table would visit every week.
    static func tables(for table: Table, at nowMilliseconds: Int64) -> [String] {
        switch table {
        case .pings: [PingWeek(containing: nowMilliseconds).partitionName, "census_pings_default", "census_ping_keys"]
        case .rejects: ["census_rejects"]
        }
    }

    /// `VACUUM (FREEZE, SKIP_LOCKED)` of `tables` (those that exist).
    static func statement(for tables: [String]) -> String {
        "VACUUM (FREEZE, SKIP_LOCKED) " + tables.joined(separator: ", ")
    }

    /// Counts `rows` just appended to `table` and, once ``rowsPerVacuum`` have been since its last
    /// vacuum started, starts one, unless one of that table is still running.
    func appended(_ rows: Int, to table: Table) {
        state.withLockedValue { state in
            guard !state.closed else { return }
            state.appended[table, default: 0] += rows
            guard state.appended[table, default: 0] >= rowsPerVacuum, state.running[table] == nil else { return }
            state.appended[table] = 0
            state.running[table] = Task { await self.run(table) }
        }
    }

    /// Vacuums completed (failed ones included), by table.
    var completed: [Table: Int] { state.withLockedValue { $0.completed } }

    /// Waits for the vacuums running now.
    func waitForRunning() async {
        let running = state.withLockedValue { Array($0.running.values) }
        for task in running { await task.value }
    }

    /// Starts no more vacuums and waits for those running (the connections they use close next).
    func close() async {
        state.withLockedValue { $0.closed = true }
        await waitForRunning()
    }

    private func run(_ table: Table) async {
        do {
            try await vacuum(table)
        } catch {
            // Autovacuum still covers the table; the next threshold tries again.
            logger.warning("vacuum of appended rows failed", metadata: ["table": "\(table.rawValue)", "error": "\(storageErrorDescription(error))"])
        }
        state.withLockedValue { state in
            state.running[table] = nil
            state.completed[table, default: 0] += 1
        }
    }
}
