@testable import CensusStore
import SQLKit
import Testing

/// How the database hands an audience its pings (census-decisions.md S55): a device's day at a
/// time, SQLite's as text read here, and the tags of a report found through their own index.
@Suite struct AudienceBatchTests {
    /// SQLite's `created:seconds` pairs, and what is refused rather than read wrong.
    @Test(arguments: [
        ("1796083206:60", [1_796_083_206], [60]),
        ("5:0,7:-3,-9:12", [5, 7, -9], [0, -3, 12]),
        ("9223372036854775807:1", [Int64.max], [1]),
    ] as [(String, [Int64], [Int64])])
    func pairsAreRead(_ text: String, _ created: [Int64], _ seconds: [Int64]) throws {
        let (readCreated, readSeconds) = try AudienceBatch.pairs(text)
        #expect(readCreated == created)
        #expect(readSeconds == seconds)
    }

    @Test(arguments: ["", "5", "5:", ":5", "5:6,", "5:6,7", "5:6:7", "5:x", "5:--6", "5:6-", "9223372036854775808:1", "5 :6"])
    func malformedPairsAreRefused(_ text: String) {
        #expect(throws: AudienceBatchError.self) { try AudienceBatch.pairs(text) }
    }

    /// A report's tag pings are found through the index of tag pings, so that a day of a DCR
    /// app's pings, which holds no tag, is not read to learn so.
    @Test(arguments: Backend.available)
    func tagPingsAreFoundThroughTheirIndex(_ backend: Backend) async throws {
        try await backend.withStore { store in
            _ = try await store.insert([SessionSpanTests.ping("p1", "s1", at: 1_796_083_206)], receivedAt: 1_796_083_206_000)
            let indexes = try await store.database.withSQL { db in
                let select = ReportStore.tagPings(db, ReportQuery(appid: "PAPP", from: 1_796_083_200, to: 1_796_169_600))
                let postgres = db.dialect.name == "postgresql"
                // A table of one row is read whole; the question is whether an index can serve it.
                if postgres { try await db.raw("SET enable_seqscan = off").run() }
                let plan = try await db.raw("\(unsafeRaw: postgres ? "EXPLAIN" : "EXPLAIN QUERY PLAN") \(select.select)").all()
                    .map { try $0.decode(column: postgres ? "QUERY PLAN" : "detail", as: String.self) }
                if postgres { try await db.raw("RESET enable_seqscan").run() }
                // The definitions of the indexes the plan uses.
                let names = plan.flatMap { line in
                    line.split(separator: " ").indices.compactMap { index -> String? in
                        let words = line.split(separator: " ")
                        guard index > 0, words[index - 1].lowercased() == "using" || words[index - 1] == "INDEX" else { return nil }
                        return String(words[index])
                    }
                }
                var definitions: [String] = []
                for name in names {
                    let query: SQLQueryString = postgres
                        ? "SELECT indexdef AS definition FROM pg_indexes WHERE indexname = \(bind: name)"
                        : "SELECT sql AS definition FROM sqlite_master WHERE name = \(bind: name)"
                    definitions += try await db.raw(query).all().map { try $0.decode(column: "definition", as: String.self) }
                }
                return (plan, definitions)
            }
            #expect(!indexes.1.isEmpty && indexes.1.allSatisfy { $0.contains("WHERE") && $0.contains(CreditRule.isTagSQL.split(separator: " ")[0]) },
                    "\(indexes.0) uses \(indexes.1)")
        }
    }
}
