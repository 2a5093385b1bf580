/// A database that writes a batch's spans (``SessionSpans``) in the statement that inserts the
/// batch: one round trip and one commit for both (PostgreSQL, ``PingBatchSpans``).
protocol InsertsPingsWithSpans: CensusDatabase {
    /// Inserts `pings` with the spans `needs` (spans already covering a need are left alone)
    /// and returns the ids that were new, as ``CensusDatabase/insertPings(_:receivedAt:)``.
    func insertPings(_ pings: [IncomingPing], writingSpans needs: [SessionSpans.Need],
                     receivedAt: Int64) async throws -> Set<String>
}
