import CensusStore
import SQLKit

/// The census's text compared byte by byte on PostgreSQL (`COLLATE "C"`), as SQLite compares it
/// (census-decisions.md S18).
///
/// A PostgreSQL column of text takes its database's collation. Under a locale such as
/// `en_US.UTF-8`, the default of many servers, every comparison goes through the C library's
/// `strcoll`: each ping's insert into the index by ping id compares about twenty keys so, and
/// the reports list apps and assets in the locale's order (`a`, `B`, `b`) where SQLite lists them
/// in bytes' (`B`, `a`, `b`). Ids and names sent by apps have no language; bytes are their order.
enum ByteOrderedText {
    /// `COLLATE "C"` for every text column of the census's tables that does not compare as bytes.
    ///
    /// Idempotent: it alters only what is not byte-ordered yet, so it also catches a table a later
    /// migration forgot to declare so (a test checks none is left). PostgreSQL keeps each table's
    /// rows as they are and rebuilds the indexes on the altered columns: about 3 s per million
    /// pings, once, under the migration's lock.
    static func migrate(_ db: any SQLDatabase) async throws {
        var columnsByTable: [(table: String, columns: [String])] = []
        for (table, column) in try await columnsNotByteOrdered(db) {
            if columnsByTable.last?.table == table {
                columnsByTable[columnsByTable.count - 1].columns.append(column)
            } else {
                columnsByTable.append((table, [column]))
            }
        }
        for (table, columns) in columnsByTable {
            // One statement per table, so its indexes are rebuilt once.
            let changes = columns.map { (column: String) -> SQLQueryString in "ALTER COLUMN \(ident: column) TYPE text COLLATE \"C\"" }
            try await db.raw("ALTER TABLE \(ident: table) \(changes.joined(separator: ", "))").run()
        }
    }

    /// The text columns of the census's tables (`census_…`, in the current schema) that do not
    /// compare as bytes, by table. A column of the database's default collation does when the
    /// database was created with the locale `C` (or `POSIX`): altering it would rebuild its
    /// indexes for nothing.
    static func columnsNotByteOrdered(_ db: any SQLDatabase) async throws -> [(table: String, column: String)] {
        // `collation_name` is null for a column of the database's default collation.
        try await db.raw("""
            SELECT table_name::text AS table_name, column_name::text AS column_name
            FROM information_schema.columns
            WHERE table_schema = current_schema() AND table_name LIKE 'census\\_%' AND data_type = 'text'
              AND COALESCE(collation_name, (SELECT datcollate FROM pg_database WHERE datname = current_database()))
                  NOT IN ('C', 'POSIX')
            ORDER BY table_name, ordinal_position
            """).all().map {
            (try $0.decode(column: "table_name", as: String.self), try $0.decode(column: "column_name", as: String.self))
        }
    }
}
