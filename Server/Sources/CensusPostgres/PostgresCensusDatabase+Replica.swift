import PostgresNIO

extension PostgresCensusDatabase {
    /// On a standby, the age of the last transaction it replayed while WAL it has received waits
    /// to be replayed; 0 once it has replayed all it received (an idle primary sends nothing, and
    /// the last replayed commit's age would grow without any lag), and on a primary.
    package func replicationLag() async throws -> Double? {
        var lag: Double = 0
        for try await value in try await client.query(PostgresQuery(unsafeSQL: Self.replicationLagSQL)).decode(Double.self) {
            lag = value
        }
        return max(0, lag)
    }

    static let replicationLagSQL = """
        SELECT CASE
            WHEN NOT pg_is_in_recovery() THEN 0
            WHEN pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn() THEN 0
            ELSE COALESCE(EXTRACT(EPOCH FROM now() - pg_last_xact_replay_timestamp()), 0)
        END::float8
        """
}
