import CensusHTTP
import CensusStore
import MeterTables
import Testing

/// The suite's own databases go when their test ends: a developer running it against their
/// PostgreSQL was left with some eighty databases per run.
@Suite struct TestDatabaseTests {
    @Test(arguments: Backend.available)
    func aFreshDatabaseIsRemovedAfterItsTest(backend: Backend) async throws {
        let location = try await backend.withFreshDatabase { location in
            try await location.withStore { try await $0.migrate() }
            #expect(try await Backend.exists(location))
            return location
        }
        #expect(try await !Backend.exists(location))
    }

    @Test(arguments: Backend.available)
    func aFreshDatabaseIsRemovedWhenItsTestThrows(backend: Backend) async throws {
        struct Failure: Error {}
        var made: DatabaseLocation?
        await #expect(throws: Failure.self) {
            try await backend.withFreshDatabase { location in
                made = location
                throw Failure()
            }
        }
        let location = try #require(made)
        #expect(try await !Backend.exists(location))
    }
}
