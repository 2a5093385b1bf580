@testable import CensusHTTP
@testable import CensusPostgres
@testable import CensusSQLite
@testable import CensusStore
@testable import MeterTables
import SQLKit
import Testing

/// The plans PostgreSQL makes once per connection for the census's prepared batch statements.
@Suite(.enabled(if: Backend.postgresURL != nil, "needs APPMETER_TEST_POSTGRES_URL"))
struct PostgresBatchPlanTests {
    /// A batch's spans are looked up by key even in a plan made while `census_sessions` was empty,
    /// as on a census's first batches: a plan that scans the whole table kept scanning it for
    /// every batch once it held every session (``PingBatchSpans``).
    @Test func aBatchsSpansAreLookedUpByKeyInAPlanMadeOnAnEmptyTable() async throws {
        let plan = try await Backend.postgres.withStore { store in
            try await store.database.withSQL { sql in
                try await sql.raw("SET plan_cache_mode = force_generic_plan").run()
                try await sql.raw(SQLQueryString("PREPARE batch_with_spans AS " + InsertPingsAndSpansSkippingStored.sql)).run()
                let parameters = PingBatchColumns.textColumns.count + 5
                let arguments = Array(repeating: "'{}'", count: parameters).joined(separator: ", ")
                let rows = try await sql.raw(SQLQueryString("EXPLAIN EXECUTE batch_with_spans(\(arguments))")).all()
                return try rows.map { try $0.decode(column: "QUERY PLAN", as: String.self) }
            }
        }
        #expect(plan.contains { $0.contains("Index Scan using census_sessions_pkey on census_sessions known") })
        #expect(!plan.contains { $0.contains("Seq Scan on census_sessions") }, "\(plan.joined(separator: "\n"))")
    }
}
