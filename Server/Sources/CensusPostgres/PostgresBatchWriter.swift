package import CensusStore
import Logging
import PostgresNIO

/// The PostgreSQL engine's inserts of a group commit's batches, straight through postgres-nio:
/// prepared statements that take a batch as one array per column (`UNNEST`, ``PingBatchColumns``),
/// whatever the batch's size, with the session spans it needs in the same statement
/// (``PingBatchSpans``). SQLKit's portable insert builds a statement of `rows × 15` parameters,
/// which PostgreSQL parses and plans anew for every batch, and encodes each value through
/// `Encodable` (docs/performance.md).
package struct PostgresBatchWriter: CensusBatchWriter {
    let database: PostgresCensusDatabase
    /// The writers' own connection its session holds (``PostgresWriterConnections``), or nil: then
    /// each statement takes one from the pool, which fails it with the reason when none opens.
    let connection: PostgresConnection?

    package func insertPings(_ pings: [IncomingPing], writingSpans needs: [SessionSpans.Need],
                     receivedAt: Int64) async throws -> Set<String> {
        let batch = PingBatchColumns(pings, receivedAt: receivedAt)
        let spans = PingBatchSpans(needs: needs)
        do {
            // Almost every batch is all new: a plain insert, which PostgreSQL runs faster than one
            // that checks each row for a conflict and returns the new ids (docs/performance.md).
            if needs.isEmpty {
                _ = try await committed(InsertNewPings(batch: batch))
            } else {
                _ = try await committed(InsertNewPingsAndSpans(batch: batch, spans: spans))
            }
            database.appendVacuum.appended(pings.count, to: .pings)
            return Set(pings.map(\.key))
        } catch let error as PSQLError where error.serverInfo?[.sqlState] == Self.uniqueViolation {
            // A ping of the batch is already stored (a retry), so the insert stored none of it,
            // nor its spans.
            let stored = needs.isEmpty
                ? Set(try await committed(InsertPingsSkippingStored(batch: batch)))
                : Set(try await committed(InsertPingsAndSpansSkippingStored(batch: batch, spans: spans)))
            database.appendVacuum.appended(stored.count, to: .pings)
            return stored
        }
    }

    /// PostgreSQL's SQLSTATE for a duplicate key.
    private static let uniqueViolation = "23505"

    package func insertRejects(_ rejects: [PingStore.NewReject], receivedAt: Int64) async throws {
        var statement = InsertRejects(receivedAt: receivedAt)
        for reject in rejects {
            statement.ids.append(reject.id)
            statement.reasons.append(reject.reason)
            statement.rawRequests.append(reject.rawRequest)
            statement.appids.append(reject.appid)
            statement.bytes.append(reject.bytes)
        }
        _ = try await committed(statement)
        database.appendVacuum.appended(rejects.count, to: .rejects)
    }

    /// Runs `statement` in a transaction of its own (``inTransaction(run:_:)``: answered only
    /// once committed), on the connection of the writer's session when there is one and it is
    /// open, else on one from the pool, and returns its rows.
    private func committed<Statement: PostgresPreparedStatement>(_ statement: Statement) async throws -> [Statement.Row] {
        if let connection, !connection.isClosed {
            return try await inTransaction(on: connection, logger: Self.quiet) { try await Self.rows(of: statement, on: connection) }
        }
        return try await database.client.withConnection { connection in
            try await inTransaction(on: connection, logger: Self.quiet) { try await Self.rows(of: statement, on: connection) }
        }
    }

    private static func rows<Statement: PostgresPreparedStatement>(
        of statement: Statement, on connection: PostgresConnection
    ) async throws -> [Statement.Row] {
        var rows: [Statement.Row] = []
        for try await row in try await connection.execute(statement, logger: quiet) { rows.append(row) }
        return rows
    }

    /// No per-statement logs, as `PostgresClient.execute` without a logger.
    private static let quiet = Logger(label: "appmeter.postgres.writer", factory: { _ in SwiftLogNoOpLogHandler() })
}

/// `INSERT INTO census_rejects … SELECT … FROM UNNEST(…)`: a batch of refused requests.
private struct InsertRejects: PostgresPreparedStatement {
    typealias Row = Int

    static let name = "appmeter_insert_rejects_2"
    static let sql = """
        INSERT INTO census_rejects (reject_id, received_at, reason, raw_request, appid, bytes)
        SELECT batch.reject_id, $2, batch.reason, batch.raw_request, batch.appid, batch.bytes
        FROM UNNEST($1::text[], $3::text[], $4::text[], $5::text[], $6::int8[]) AS batch(reject_id, reason, raw_request, appid, bytes)
        """

    var receivedAt: Int64
    var ids: [String] = []
    var reasons: [String] = []
    var rawRequests: [String] = []
    var appids: [String] = []
    var bytes: [Int64] = []

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 6)
        bindings.append(ids)
        bindings.append(receivedAt)
        bindings.append(reasons)
        bindings.append(rawRequests)
        bindings.append(appids)
        bindings.append(bytes)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Int { 0 }
}
