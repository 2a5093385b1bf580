import CensusStore
import Foundation

/// Records the census's AMP cloud-API requests (``AMPStore/recordAMP(_:receivedAt:)``): one page
/// view's requests one after the other (``PageViewTurns``), page views side by side, and every
/// replay's work on a thread of its own, not Swift's shared threads, which carry `/healthz`, the
/// batches and every other route (census-decisions.md AMP7).
final class AMPIngest: Sendable {
    private let store: PingStore
    private let turns = PageViewTurns()
    /// Where replays work between their database awaits: one thread, so a page view fed as fast
    /// as a sender can leaves the other core to ingest and the other routes.
    private let threads = ReadThreads(count: 1)

    init(store: PingStore) { self.store = store }

    func record(_ event: AMPCloudEvent) async throws -> Result<AMPRecording, PingRejection> {
        let receivedAt = store.clock.milliseconds()
        return try await threads.run {
            await turns.begin(event.pageView)
            do {
                let result = try await store.amp.recordAMP(event, receivedAt: receivedAt)
                await turns.end(event.pageView)
                return result
            } catch {
                await turns.end(event.pageView)
                throw error
            }
        }
    }
}
