import PostgresNIO

/// A batch of pings as one array per column of ``PingStore/pingColumns``, for the `UNNEST`
/// inserts: column `i` is in `texts[i]` or `integers[i]`, as ``PingStore/row(of:receivedAt:)``
/// types it.
struct PingBatchColumns: Sendable {
    /// Whether each column of ``PingStore/pingColumns`` holds text, from a row of any ping.
    static let textColumns: [Bool] = PingStore.row(of: IncomingPing(
        pingID: "", appID: "", product: "", pingType: "", kind: .content, assetID: "", creditedSeconds: 0,
        sessionID: "", deviceID: "", optedOut: false, createdAt: 0, rawQuery: ""), receivedAt: 0)
        .map { if case .text = $0 { true } else { false } }

    /// `INSERT INTO census_pings … SELECT * FROM UNNEST($1::text[], $2::int8[], …) … ORDER BY
    /// ping_id`, to which a statement adds its conflict clause.
    ///
    /// In the order of the key: an insert waits for another transaction's uncommitted row with
    /// the same ping id, so two batches holding the same pings in different orders (two servers
    /// given the same retries) waited for each other until PostgreSQL failed one as a deadlock.
    static let insertSQL: String = {
        let parameters = textColumns.enumerated()
            .map { "$\($0.offset + 1)::\($0.element ? "text[]" : "int8[]")" }.joined(separator: ", ")
        let columns = PingStore.pingColumns.joined(separator: ", ")
        return "INSERT INTO census_pings (\(columns)) SELECT * FROM UNNEST(\(parameters)) AS batch(\(columns))"
            + " ORDER BY ping_id"
    }()

    private(set) var texts: [[String]]
    private(set) var integers: [[Int64]]

    /// The columns of `pings`, received at `receivedAt` (milliseconds since 1970).
    init(_ pings: [IncomingPing], receivedAt: Int64) {
        texts = Self.textColumns.map { isText in
            var column: [String] = []
            if isText { column.reserveCapacity(pings.count) }
            return column
        }
        integers = Self.textColumns.map { isText in
            var column: [Int64] = []
            if !isText { column.reserveCapacity(pings.count) }
            return column
        }
        for ping in pings {
            for (column, value) in PingStore.row(of: ping, receivedAt: receivedAt).enumerated() {
                switch value {
                case .text(let text): texts[column].append(text)
                case .integer(let number): integers[column].append(number)
                }
            }
        }
    }

    /// The columns in the order of ``PingStore/pingColumns``, for either insert.
    var bindings: PostgresBindings {
        var bindings = PostgresBindings(capacity: Self.textColumns.count)
        for (column, isText) in Self.textColumns.enumerated() {
            if isText { bindings.append(texts[column]) } else { bindings.append(integers[column]) }
        }
        return bindings
    }
}

/// The batch inserted as it is: fails with a unique violation, storing nothing, when a ping of
/// it is already stored.
struct InsertNewPings: PostgresPreparedStatement {
    typealias Row = Int
    static let name = "appmeter_insert_new_pings_1"
    static let sql = PingBatchColumns.insertSQL

    var batch: PingBatchColumns

    func makeBindings() throws -> PostgresBindings { batch.bindings }
    func decodeRow(_ row: PostgresRow) throws -> Int { 0 }
}

/// The batch without the pings already stored, `… ON CONFLICT (ping_id) DO NOTHING RETURNING
/// ping_id`: the ids that were new.
struct InsertPingsSkippingStored: PostgresPreparedStatement {
    typealias Row = String
    static let name = "appmeter_insert_pings_2"
    static let sql = PingBatchColumns.insertSQL + " ON CONFLICT (ping_id) DO NOTHING RETURNING ping_id"

    var batch: PingBatchColumns

    func makeBindings() throws -> PostgresBindings { batch.bindings }
    func decodeRow(_ row: PostgresRow) throws -> String { try row.decode(String.self) }
}
