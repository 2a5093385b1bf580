import PostgresNIO

/// The ping and reject inserts of the PostgreSQL backend, straight through postgres-nio: one
/// prepared statement that takes a batch as one array per column (`UNNEST`), whatever the batch's
/// size. SQLKit's portable insert builds a statement of `rows × 15` parameters, which PostgreSQL
/// parses and plans anew for every batch, and encodes each value through `Encodable`
/// (docs/performance.md).
extension PostgresCensusDatabase {
    func insertPings(_ pings: [IncomingPing], receivedAt: Int64) async throws -> Set<String> {
        var statement = InsertPings(rows: pings.count)
        for ping in pings {
            for (column, value) in PingStore.row(of: ping, receivedAt: receivedAt).enumerated() {
                switch value {
                case .text(let text): statement.texts[column].append(text)
                case .integer(let number): statement.integers[column].append(number)
                }
            }
        }
        var stored = Set<String>()
        for try await id in try await client.execute(statement) { stored.insert(id) }
        return stored
    }

    func insertRejects(_ rejects: [PingStore.NewReject], receivedAt: Int64) async throws {
        var statement = InsertRejects(receivedAt: receivedAt)
        for reject in rejects {
            statement.ids.append(reject.id)
            statement.reasons.append(reject.reason)
            statement.rawRequests.append(reject.rawRequest)
        }
        for try await _ in try await client.execute(statement) {}
    }
}

/// `INSERT INTO census_pings … SELECT * FROM UNNEST($1::text[], $2::int8[], …) … ORDER BY ping_id
/// ON CONFLICT (ping_id) DO NOTHING RETURNING ping_id`: the ids that were new. Column `i` of the
/// batch is in `texts[i]` or `integers[i]`, as ``PingStore/row(of:receivedAt:)`` types it.
private struct InsertPings: PostgresPreparedStatement {
    typealias Row = String

    /// Whether each column of ``PingStore/pingColumns`` holds text, from a row of any ping.
    static let textColumns: [Bool] = PingStore.row(of: IncomingPing(
        pingID: "", appID: "", product: "", pingType: "", kind: .content, assetID: "", creditedSeconds: 0,
        sessionID: "", deviceID: "", optedOut: false, createdAt: 0, rawQuery: ""), receivedAt: 0)
        .map { if case .text = $0 { true } else { false } }

    static let name = "appmeter_insert_pings_1"
    static let sql: String = {
        let parameters = textColumns.enumerated()
            .map { "$\($0.offset + 1)::\($0.element ? "text[]" : "int8[]")" }.joined(separator: ", ")
        let columns = PingStore.pingColumns.joined(separator: ", ")
        // In the order of the key: an insert waits for another transaction's uncommitted row with
        // the same ping id, so two batches holding the same pings in different orders (two
        // servers given the same retries) waited for each other until PostgreSQL failed one.
        return "INSERT INTO census_pings (\(columns)) SELECT * FROM UNNEST(\(parameters)) AS batch(\(columns))"
            + " ORDER BY ping_id ON CONFLICT (ping_id) DO NOTHING RETURNING ping_id"
    }()

    var texts: [[String]]
    var integers: [[Int64]]

    init(rows: Int) {
        texts = Self.textColumns.map { isText in
            var column: [String] = []
            if isText { column.reserveCapacity(rows) }
            return column
        }
        integers = Self.textColumns.map { isText in
            var column: [Int64] = []
            if !isText { column.reserveCapacity(rows) }
            return column
        }
    }

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: Self.textColumns.count)
        for (column, isText) in Self.textColumns.enumerated() {
            if isText { bindings.append(texts[column]) } else { bindings.append(integers[column]) }
        }
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> String {
        try row.decode(String.self)
    }
}

/// `INSERT INTO census_rejects … SELECT … FROM UNNEST(…)`: a batch of refused requests.
private struct InsertRejects: PostgresPreparedStatement {
    typealias Row = Int

    static let name = "appmeter_insert_rejects_1"
    static let sql = """
        INSERT INTO census_rejects (reject_id, received_at, reason, raw_request)
        SELECT batch.reject_id, $2, batch.reason, batch.raw_request
        FROM UNNEST($1::text[], $3::text[], $4::text[]) AS batch(reject_id, reason, raw_request)
        """

    var receivedAt: Int64
    var ids: [String] = []
    var reasons: [String] = []
    var rawRequests: [String] = []

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 4)
        bindings.append(ids)
        bindings.append(receivedAt)
        bindings.append(reasons)
        bindings.append(rawRequests)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Int { 0 }
}
