@testable import CensusSQLite
@testable import CensusStore
import Testing

/// The embedded engine's insert of a batch, laid out from parts made once: one row of
/// placeholders per ping, each row as wide as the pings' columns.
@Suite struct SQLiteInsertStatementTests {
    @Test(arguments: [1, 2, 7])
    func aBatchOfRowsHasOneRowOfPlaceholdersPerPing(rows: Int) {
        let row = "(" + Array(repeating: "?", count: PingColumn.all.count).joined(separator: ", ") + ")"
        let expected = "INSERT INTO census_pings (" + PingStore.pingColumns.joined(separator: ", ") + ") VALUES "
            + Array(repeating: row, count: rows).joined(separator: ", ")
            + " ON CONFLICT (ping_id) DO NOTHING RETURNING ping_id"
        #expect(SQLiteBatchWriter.insertStatement(rows: rows) == expected)
    }
}
