import CensusStore
import Logging
import PostgresNIO

extension PostgresCensusDatabase {
    /// Attempts at opening: a server that is starting gets about 15 s.
    package static let probeAttempts = 3
    /// How long one attempt may take before it counts as failed.
    static let probeTimeout: Duration = .seconds(4)
    /// The wait between attempts.
    static let probePause: Duration = .seconds(1)

    /// Returns once the server answers a query, or throws the last failure after
    /// ``probeAttempts`` attempts: an unreachable server is reported at once, not waited for
    /// forever (the client retries its connections without end).
    package func probe() async throws {
        var lastError: any Error = CancellationError()
        for attempt in 1...Self.probeAttempts {
            do {
                let client = self.client
                try await answering(within: Self.probeTimeout) {
                    try await client.withConnection { connection in
                        _ = try await connection.query("SELECT 1", logger: Logger(label: "Census.probe"))
                    }
                }
                return
            } catch {
                lastError = error
                if attempt < Self.probeAttempts { try await Task.sleep(for: Self.probePause) }
            }
        }
        throw lastError
    }
}
