@testable import CensusHTTP
@testable import CensusPostgres
@testable import CensusSQLite
@testable import CensusStore
@testable import MeterTables
import SQLKit
import Testing
import MeterContract

/// Text is compared byte by byte on both databases (``ByteOrderedText``, census-decisions.md S18).
@Suite struct ByteOrderedTextTests {
    static func ping(_ id: String, appid: String, asset: String) -> IncomingPing {
        IncomingPing(pingID: id, appID: appid, product: "dcr", pingType: "view", kind: .content, assetID: asset,
                     creditedSeconds: 10, sessionID: "s", deviceID: "d", optedOut: false, createdAt: 100,
                     rawQuery: "ci=\(id)")
    }

    /// The reports list apps and assets in the order of their bytes, whatever the locale of a
    /// PostgreSQL (CI's test cluster runs `en_US.UTF-8`, which sorts `a` before `B`).
    @Test(arguments: Backend.available)
    func reportsSortAppsAndAssetsByTheirBytes(_ backend: Backend) async throws {
        try await backend.withStore { store in
            let names = ["b", "B", "a", "é", "Z", "_"]
            _ = try await store.insert(names.enumerated().flatMap { index, name in
                [Self.ping("p\(index)", appid: "P\(name)", asset: "x"), Self.ping("q\(index)", appid: "PA", asset: name)]
            }, receivedAt: 1)
            let rows = try await store.reports.report(ReportQuery())
            #expect(rows.map(\.appid) == ["PA", "PA", "PA", "PA", "PA", "PA", "PB", "PZ", "P_", "Pa", "Pb", "Pé"])
            #expect(rows.filter { $0.appid == "PA" }.map(\.assetid) == ["B", "Z", "_", "a", "b", "é"])
        }
    }

    /// Every text column of the census's tables on PostgreSQL is `COLLATE "C"`: fails for a
    /// table a later migration declares without it.
    @Test(.enabled(if: Backend.postgresURL != nil, "needs APPMETER_TEST_POSTGRES_URL"))
    func everyTextColumnOnPostgreSQLIsByteOrdered() async throws {
        try await Backend.postgres.withStore { store in
            let (left, textColumns) = try await store.database.withSQL { db in
                (try await ByteOrderedText.columnsNotByteOrdered(db).map { "\($0.table).\($0.column)" },
                 try await Self.textColumns(db))
            }
            #expect(left == [])
            #expect(textColumns.contains("census_pings.ping_id"))
            #expect(textColumns.contains("census_sessions.session_id"))
            #expect(textColumns.count > 20)
        }
    }

    /// A PostgreSQL census of schema 8 keeps its pings, and finds and reports them in byte order,
    /// once migrated.
    @Test(.enabled(if: Backend.postgresURL != nil, "needs APPMETER_TEST_POSTGRES_URL"))
    func aCensusOfSchemaEightIsMigrated() async throws {
        try await Backend.postgres.withOpenDatabase { database in
            try await database.withSQL { try await Schema.migrate($0, through: 8) }
            let store = PingStore(database: database)
            let pings = [Self.ping("2", appid: "Pb", asset: "x"), Self.ping("1", appid: "PB", asset: "x")]
            try await database.insertAsOlderSchema(pings, receivedAt: 1)
            try await database.withSQL { try await SessionSpans.write(SessionSpans.needs(of: pings), $0) }
            // Unless the database was created with the locale C, whose columns compare as bytes already.
            if try await !Self.databaseComparesBytes(database) {
                #expect(try await database.withSQL { try await ByteOrderedText.columnsNotByteOrdered($0) }.isEmpty == false)
            }
            try await store.migrate()
            #expect(try await database.withSQL { try await ByteOrderedText.columnsNotByteOrdered($0) }.isEmpty)
            #expect(try await store.reports.report(ReportQuery()).map(\.appid) == ["PB", "Pb"])
            #expect(try await store.sessions.pings(session: "s").map(\.pingID).sorted() == ["1", "2"])
            // The primary key still refuses a ping stored twice.
            let stored = try await store.insert([Self.ping("1", appid: "PB", asset: "x"), Self.ping("3", appid: "PB", asset: "x")],
                                                receivedAt: 2)
            #expect(stored == [PingKey.scoped(appID: "PB", pingID: "3")])
        }
    }

    /// The census's text columns, as `table.column`.
    static func textColumns(_ db: any SQLDatabase) async throws -> [String] {
        try await db.raw("""
            SELECT table_name::text || '.' || column_name::text AS name FROM information_schema.columns
            WHERE table_schema = current_schema() AND table_name LIKE 'census\\_%' AND data_type = 'text'
            """).all().map { try $0.decode(column: "name", as: String.self) }
    }

    /// Whether the database's default collation is byte order (created with the locale C).
    static func databaseComparesBytes(_ database: any CensusDatabase) async throws -> Bool {
        try await database.withSQL { db in
            try await db.raw("SELECT datcollate AS collation FROM pg_database WHERE datname = current_database()")
                .first(decodingColumn: "collation", as: String.self)
        }.map { ["C", "POSIX"].contains($0) } ?? false
    }
}
