@testable import CensusHTTP
@testable import CensusPostgres
@testable import CensusSQLite
@testable import CensusStore
@testable import MeterTables
import NIOCore
import PostgresNIO
import Testing
import MeterContract

/// PostgreSQL's insert binds a batch as one array per column, written straight from the pings
/// (``PingColumnArray``): the bytes must be those postgres-nio writes for the same arrays, so
/// that PostgreSQL reads them the same way.
@Suite struct PingColumnArrayTests {
    static let pings = [
        IncomingPing(pingID: "p-1", appID: "PXXXX", product: "dcr", pingType: "timer", kind: .content,
                     assetID: "ai-1", creditedSeconds: 60, sessionID: "s-1", deviceID: "d-1", optedOut: false,
                     createdAt: 1_700_000_061, rawQuery: "prd=dcr&tl=caf%C3%A9\tand\\more"),
        IncomingPing(pingID: "p-2", appID: "PXXXX", product: "dtvr", pingType: "view", kind: .dtvr,
                     assetID: "", channelName: "Ünïcode ✓", creditedSeconds: 0, ottType: "casting",
                     sessionID: "", deviceID: "", optedOut: true, createdAt: -1, rawQuery: ""),
    ]

    @Test(arguments: [[IncomingPing](), pings])
    func eachColumnIsWhatPostgresNIOWritesForTheSameArray(pings: [IncomingPing]) throws {
        let receivedAt: Int64 = 1_795_393_291_208
        for (column, isText) in PingBatchColumns.textColumns.enumerated() {
            var ours = PostgresBindings()
            ours.append(PingColumnArray(pings: pings, column: PingColumn.all[column], receivedAt: receivedAt))
            var theirs = PostgresBindings()
            let values = pings.map { PingColumn.all[column].value(of: $0, receivedAt: receivedAt) }
            if isText {
                try theirs.append(values.map { value -> String in
                    guard case .text(let text) = value else { throw ColumnTypeMismatch(column: column) }
                    return text
                })
            } else {
                try theirs.append(values.map { value -> Int64 in
                    guard case .integer(let number) = value else { throw ColumnTypeMismatch(column: column) }
                    return number
                })
            }
            #expect(ours == theirs, "column \(PingStore.pingColumns[column])")
        }
    }

    struct ColumnTypeMismatch: Error {
        let column: Int
    }
}
