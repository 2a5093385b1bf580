import Testing
@testable import CensusHTTP
@testable import CensusPostgres
@testable import CensusSQLite
@testable import CensusStore
@testable import MeterTables

/// Ping keys (docs/census.md §4): `<pingid>/<tag of the appid>`, and the migration from the
/// `<appid>/<pingid>` keys of schemas 10 to 13.
@Suite struct PingKeyTests {
    @Test func aKeyIsThePingIDAndSixteenHexDigitsOfTheAppid() {
        // SHA-256("PAPP") starts 0x6bd5…; the tag is its first 8 bytes.
        #expect(AppTag.digest("PAPP").count == 16)
        #expect(AppTag.digest("PAPP").allSatisfy { "0123456789abcdef".contains($0) })
        #expect(AppTag.digest("") == "e3b0c44298fc1c14")
        #expect(PingKey.scoped(appID: "", pingID: "id") == "id/e3b0c44298fc1c14")
        #expect(AppTag.of("PAPP") == AppTag.digest("PAPP"))
        #expect(PingKey.scoped(appID: "A", pingID: "x") != PingKey.scoped(appID: "B", pingID: "x"))
    }

    @Test(arguments: ["x", "ü/é", "", "a/b/c", "x/e3b0c44298fc1c14"])
    func aKeyGivesItsPingIDBack(_ pingID: String) {
        for appID in ["PAPP", "", "ü"] {
            #expect(PingKey.unscoped(PingKey.scoped(appID: appID, pingID: pingID), appID: appID) == pingID)
        }
    }

    /// Keys stored by schema 13 move to the new form, a ping delivered again after the upgrade is
    /// still a duplicate, and keys a sender chose so that a new key equals an old one still
    /// waiting its turn do not stop the migration.
    @Test(arguments: Backend.available)
    func theMigrationKeepsEveryPingADuplicateOfItself(_ backend: Backend) async throws {
        try await backend.withOpenDatabase { database in
            try await database.withSQL { try await Schema.migrate($0, through: 13) }
            let honest = SessionSpanTests.ping("honest", "s1", at: 100)
            let first = SessionSpanTests.ping("x", "s2", at: 100, appid: "A")
            // Its old key, `x/<tag of A>`, is the new key of `first`.
            let crafted = SessionSpanTests.ping(AppTag.of("A"), "s3", at: 100, appid: "x")
            try await database.insertAsOlderSchema([honest, first, crafted], receivedAt: 1) { $0.appID + "/" + $0.pingID }
            let store = PingStore(database: database)
            try await store.migrate()
            for ping in [honest, first, crafted] {
                #expect(try await store.insert([ping], receivedAt: 2).isEmpty, "\(ping.pingID) stored twice")
                #expect(try await store.sessions.pings(session: ping.sessionID).map(\.pingID) == [ping.pingID])
            }
            #expect(try await store.insert([SessionSpanTests.ping("x", "s2", at: 101, appid: "B")], receivedAt: 2)
                    == [PingKey.scoped(appID: "B", pingID: "x")])
        }
    }
}
