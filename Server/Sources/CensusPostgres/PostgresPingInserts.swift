import CensusStore
import PostgresNIO

/// A batch of pings as one array per column (``PingColumn/all``), for the `UNNEST` inserts: each
/// column is bound as `text[]` or `int8[]` and encoded straight from the pings (``PingColumnArray``).
struct PingBatchColumns: Sendable {
    /// Whether each column of ``PingColumn/all`` holds text.
    static let textColumns: [Bool] = PingColumn.all.map(\.isText)

    /// `WITH keys AS (INSERT INTO census_ping_keys …) INSERT INTO census_pings … SELECT * FROM
    /// UNNEST($1::text[], $2::int8[], …)`: the batch's keys claimed in `census_ping_keys`, the one
    /// authority on duplicates where pings are partitioned by week (census-decisions.md S53), and
    /// the pings written, in one statement and one commit.
    ///
    /// - `spans`: a `spans AS (…)` table expression (``PingBatchSpans``), written before the keys
    ///   and the pings: the keys' rows wait for it, and so do the pings'.
    /// - `skippingStored`: keys already claimed are skipped and the pings of the others returned;
    ///   otherwise a key claimed before fails the statement with a unique violation, storing nothing.
    ///
    /// Both inserts go in the order of the key, after the spans: an insert waits for another transaction's
    /// uncommitted row with the same key, so two batches holding the same pings in different
    /// orders (two servers given the same retries) waited for each other until PostgreSQL failed
    /// one as a deadlock.
    static func insertSQL(spans: String?, skippingStored: Bool) -> String {
        let parameters = textColumns.enumerated()
            .map { "$\($0.offset + 1)::\($0.element ? "text[]" : "int8[]")" }.joined(separator: ", ")
        let columns = PingStore.pingColumns.joined(separator: ", ")
        let batch = "UNNEST(\(parameters)) AS batch(\(columns))"
        let afterSpans = spans == nil ? "" : " WHERE (SELECT count(*) FROM spans) >= 0"
        // The keys' two arrays alone, not the batch's every column a second time.
        let key = PingStore.pingColumns.firstIndex(of: "ping_id")! + 1
        let receipt = PingStore.pingColumns.firstIndex(of: "received_at")! + 1
        let keys = "keys AS (INSERT INTO census_ping_keys (ping_id, received_at) SELECT claimed.ping_id, claimed.received_at"
            + " FROM UNNEST($\(key)::text[], $\(receipt)::int8[]) AS claimed(ping_id, received_at)"
            + afterSpans + " ORDER BY claimed.ping_id COLLATE \"C\""
            + (skippingStored ? " ON CONFLICT (ping_id) DO NOTHING" : "") + " RETURNING ping_id)"
        // The pings read the keys before their first row (a table expression nothing reads runs
        // after the statement), so every statement takes its locks in one order: spans, keys, pings.
        let pings = "INSERT INTO census_pings (\(columns)) SELECT * FROM " + batch
            + (skippingStored ? " WHERE batch.ping_id IN (SELECT ping_id FROM keys)" : " WHERE (SELECT count(*) FROM keys) >= 0")
            + " ORDER BY ping_id COLLATE \"C\""
            // A batch may hold one ping twice (two deliveries in one group commit): its key is
            // claimed once, and its second row skipped.
            + (skippingStored ? " ON CONFLICT (received_at, ping_id) DO NOTHING RETURNING ping_id" : "")
        return "WITH " + (spans.map { $0 + ", " } ?? "") + keys + " " + pings
    }

    let pings: [IncomingPing]
    let receivedAt: Int64

    /// The columns of `pings`, received at `receivedAt` (milliseconds since 1970).
    init(_ pings: [IncomingPing], receivedAt: Int64) {
        self.pings = pings
        self.receivedAt = receivedAt
    }

    /// The columns in the order of ``PingColumn/all``, for either insert.
    var bindings: PostgresBindings {
        // With room for a batch's spans (``PingBatchSpans/bindings(after:)``).
        var bindings = PostgresBindings(capacity: PingColumn.all.count + 5)
        for column in PingColumn.all {
            bindings.append(PingColumnArray(pings: pings, column: column, receivedAt: receivedAt))
        }
        return bindings
    }
}

/// One column of a batch in PostgreSQL's binary array format, written from the pings themselves:
/// building a `[String]` per column first, then encoding it element by element through
/// postgres-nio's generic array encoder, took about 4 % of the census's CPU under load.
struct PingColumnArray: PostgresDynamicTypeEncodable {
    let pings: [IncomingPing]
    let column: PingColumn
    let receivedAt: Int64

    var isText: Bool { column.isText }
    var psqlType: PostgresDataType { isText ? .textArray : .int8Array }
    var psqlFormat: PostgresFormat { .binary }

    /// The layout of `array_send`, as postgres-nio writes it for an array: dimensions (1, or 0
    /// when empty), a null flag, the element type, then the length and lower bound of the one
    /// dimension, and each element's length and bytes.
    func encode<JSONEncoder: PostgresJSONEncoder>(into buffer: inout ByteBuffer,
                                                  context: PostgresEncodingContext<JSONEncoder>) {
        buffer.writeInteger(pings.isEmpty ? 0 : 1, as: UInt32.self)
        buffer.writeInteger(0, as: Int32.self)
        buffer.writeInteger(isText ? PostgresDataType.text.rawValue : PostgresDataType.int8.rawValue)
        guard !pings.isEmpty else { return }
        buffer.writeInteger(Int32(pings.count))
        buffer.writeInteger(1, as: Int32.self)
        for ping in pings {
            switch column.value(of: ping, receivedAt: receivedAt) {
            case .text(let text):
                buffer.writeInteger(Int32(text.utf8.count))
                buffer.writeString(text)
            case .integer(let number):
                buffer.writeInteger(Int32(MemoryLayout<Int64>.size))
                buffer.writeInteger(number)
            }
        }
    }
}

/// The batch inserted as it is: fails with a unique violation, storing nothing, when a ping of
/// it is already stored.
struct InsertNewPings: PostgresPreparedStatement {
    typealias Row = Int
    static let name = "appmeter_insert_new_pings_2"
    static let sql = PingBatchColumns.insertSQL(spans: nil, skippingStored: false)

    var batch: PingBatchColumns

    func makeBindings() throws -> PostgresBindings { batch.bindings }
    func decodeRow(_ row: PostgresRow) throws -> Int { 0 }
}

/// The batch without the pings already stored: the keys it claimed, and so the ids that were new.
struct InsertPingsSkippingStored: PostgresPreparedStatement {
    typealias Row = String
    static let name = "appmeter_insert_pings_3"
    static let sql = PingBatchColumns.insertSQL(spans: nil, skippingStored: true)

    var batch: PingBatchColumns

    func makeBindings() throws -> PostgresBindings { batch.bindings }
    func decodeRow(_ row: PostgresRow) throws -> String { try row.decode(String.self) }
}
