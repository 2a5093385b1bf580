package import SQLKit

/// How an engine lays out `census_pings` over time (census-decisions.md S53), asked for by the
/// shared queries that write, delete and prune pings outside the engines' batch inserts.
///
/// SQLite keeps one table keyed by the ping's key. PostgreSQL partitions the pings by the week of
/// their receipt, so that retention drops whole weeks; a partitioned table cannot be unique on the
/// key alone, so the keys live in `census_ping_keys`, the one authority on what is a duplicate,
/// written and deleted in the same transaction as the pings.
package protocol PingLayout: Sendable {
    /// The columns an upsert of a stored ping conflicts on: its key, and where pings are
    /// partitioned, its receipt as well.
    var conflictTarget: [String] { get }

    /// Schema 18: the engine's layout made from the single table of schema 17, keeping every ping
    /// (`nowMilliseconds`, the migration's time, for the partitions made ahead).
    func adopt(_ db: CensusSQL, at nowMilliseconds: Int64) async throws

    /// Makes the room pings received from `nowMilliseconds` on will need (the partitions of the
    /// coming weeks); run at start and at every round of upkeep.
    func prepare(_ db: CensusSQL, at nowMilliseconds: Int64) async throws

    /// Removes the pings received before `cutoff` (milliseconds since 1970), as the layout allows
    /// (whole weeks, where partitioned, so some may stay up to a week longer); returns how many.
    func prune(before cutoff: Int64, _ db: CensusSQL) async throws -> Int

    /// Claims `keys` for pings about to be upserted at `receivedAt` and returns each key's
    /// receipt: the stored one for a key claimed before, `receivedAt` for a new one.
    func claim(_ keys: [String], receivedAt: Int64, _ db: CensusSQL) async throws -> [String: Int64]

    /// The condition on `census_pings` that holds for the stored pings with these `keys` (at most
    /// 500; false when none is stored), in a form the table's index answers: where partitioned,
    /// each key with the receipt its claim recorded, so that PostgreSQL reads one week's index
    /// per key instead of every week's.
    func rows(withKeys keys: [String], _ db: CensusSQL) async throws -> any SQLExpression

    /// Releases the keys of pings just deleted (a replay's stale pings, a device's deletion), each
    /// with the receipt of its row, so that the same keys can be stored again, as where the key is
    /// the row's; a key claimed again since with another receipt stays.
    func release(_ rows: [(key: String, receipt: Int64)], _ db: CensusSQL) async throws
}
