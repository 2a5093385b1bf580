import CensusStore
import PostgresNIO

/// A batch's pings with the session spans it needs (``SessionSpans``) in one prepared statement:
/// one round trip and one commit, where writing the spans in a statement of their own took a
/// second of each (and a plan for each `VALUES` list). Every batch of a session's first pings needs
/// its span, so a fleet starting sessions wrote that many more commits (docs/performance.md).
///
/// Whether a stored span covers a need is a lookup of the key per need, not `NOT EXISTS`: the
/// statement's plan is made once per connection, and a census that started on an empty
/// `census_sessions` planned that as a hash join over a scan of the whole table, which then held
/// every session (census-decisions.md S17; what it cost, in docs/performance.md).
///
/// The spans are a data-modifying `WITH` that the keys' and the pings' inserts read once before
/// their first row, so they are written first, in key order, as ``SessionSpans/write(_:_:)``
/// writes them and as the Google AMP replay takes them: a span is never locked after a ping of the
/// same statement.
struct PingBatchSpans: Sendable {
    /// `spans AS (INSERT INTO census_sessions … FROM UNNEST($16 … $20) …)`, for the pings' insert
    /// (``PingBatchColumns/insertSQL(spans:skippingStored:)``).
    static let spansSQL: String = {
        let first = PingBatchColumns.textColumns.count + 1
        let spans = """
            spans AS (
              INSERT INTO census_sessions AS census_sessions (session_id, appid, starts_at, ends_at)
              SELECT need.session_id, need.appid, need.starts_at, need.ends_at
              FROM UNNEST($\(first)::text[], $\(first + 1)::text[], $\(first + 2)::int8[], $\(first + 3)::int8[], $\(first + 4)::int8[])
                AS need(session_id, appid, starts_at, ends_at, last)
              WHERE NOT COALESCE((SELECT known.starts_at <= need.starts_at AND known.ends_at >= need.last
                                  FROM census_sessions AS known
                                  WHERE known.session_id = need.session_id AND known.appid = need.appid), false)
              ORDER BY need.session_id COLLATE "C", need.appid COLLATE "C"
              ON CONFLICT (session_id, appid) DO UPDATE SET \(SessionSpans.widen)
              RETURNING 1
            )
            """
        return spans
    }()

    let needs: [SessionSpans.Need]

    /// The batch's columns, then five arrays: session ids, apps, starts, ends, and the last
    /// creation time each span must cover.
    func bindings(after batch: PingBatchColumns) -> PostgresBindings {
        var bindings = batch.bindings
        bindings.append(needs.map(\.session))
        bindings.append(needs.map(\.appid))
        bindings.append(needs.map(\.first))
        bindings.append(needs.map(\.end))
        bindings.append(needs.map(\.last))
        return bindings
    }
}

/// ``InsertNewPings`` with the batch's spans.
struct InsertNewPingsAndSpans: PostgresPreparedStatement {
    typealias Row = Int
    static let name = "appmeter_insert_new_pings_and_spans_2"
    static let sql = PingBatchColumns.insertSQL(spans: PingBatchSpans.spansSQL, skippingStored: false)

    var batch: PingBatchColumns
    var spans: PingBatchSpans

    func makeBindings() throws -> PostgresBindings { spans.bindings(after: batch) }

    func decodeRow(_ row: PostgresRow) throws -> Int { 0 }
}

/// ``InsertPingsSkippingStored`` with the batch's spans.
struct InsertPingsAndSpansSkippingStored: PostgresPreparedStatement {
    typealias Row = String
    static let name = "appmeter_insert_pings_and_spans_3"
    static let sql = PingBatchColumns.insertSQL(spans: PingBatchSpans.spansSQL, skippingStored: true)

    var batch: PingBatchColumns
    var spans: PingBatchSpans

    func makeBindings() throws -> PostgresBindings { spans.bindings(after: batch) }

    func decodeRow(_ row: PostgresRow) throws -> String { try row.decode(String.self) }
}
