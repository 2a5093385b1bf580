@testable import CensusHTTP
@testable import CensusPostgres
@testable import CensusSQLite
@testable import CensusStore
@testable import MeterTables
import Foundation
import Logging
import Testing

/// Two writers storing the same pings at once: two census servers on one PostgreSQL, each given
/// the same retried pings, whose batches hold them in different orders.
@Suite struct ConcurrentWritersTests {
    /// On PostgreSQL each insert waits for the other's uncommitted rows with the same ids; in
    /// opposite orders they waited for each other, PostgreSQL broke the deadlock by failing one
    /// batch, and every ping in it was answered 503 (seen in `SharedPostgresTests` in CI).
    @Test(arguments: Backend.available)
    func theSamePingsInOppositeOrdersAreEachStoredOnceAndNeitherBatchFails(backend: Backend) async throws {
        try await backend.withFreshDatabase { location in
            let firstDatabase = try await location.open(logger: Logger(label: "test"))
            let secondDatabase = try await location.open(logger: Logger(label: "test"))
            let first = PingStore(database: firstDatabase)
            let second = PingStore(database: secondDatabase)
            do {
                try await first.migrate()
                for round in 0..<5 {
                    let pings = try (0..<300).map { index in
                        let query = PingQueries.valid(pingID: "round\(round)-\(index)")
                        return try PingValidator.validate(query: Substring(query), uriLength: query.utf8.count).get()
                    }
                    async let storedByFirst = first.insert(pings, receivedAt: 1)
                    async let storedBySecond = second.insert(pings.reversed(), receivedAt: 1)
                    let (byFirst, bySecond) = try await (storedByFirst, storedBySecond)
                    #expect(byFirst.count + bySecond.count == pings.count)
                    #expect(byFirst.isDisjoint(with: bySecond))
                }
            } catch {
                await firstDatabase.close()
                await secondDatabase.close()
                throw error
            }
            await firstDatabase.close()
            await secondDatabase.close()
        }
    }
}
