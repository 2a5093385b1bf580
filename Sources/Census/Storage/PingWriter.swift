import Foundation

/// Group commit: concurrent requests hand their pings to one writer, which stores whatever has
/// accumulated in a single INSERT (one commit, one sync) while the previous batch was being
/// written. Each request still answers only after its own ping is stored.
public actor PingWriter {
    /// What became of a ping.
    public enum Outcome: Sendable, Equatable {
        /// Stored for the first time.
        case stored
        /// Its ping id was already stored: credited once, not again.
        case duplicate
    }

    private let store: PingStore
    private let maxBatch: Int
    private var waiting: [(ping: IncomingPing, continuation: CheckedContinuation<Outcome, Error>)] = []
    private var writing = false
    /// Batches written so far (for load checks: far fewer than pings under load).
    public private(set) var batches = 0

    /// Creates a writer over `store`, writing at most `maxBatch` pings per statement.
    public init(store: PingStore, maxBatch: Int = 500) {
        self.store = store
        self.maxBatch = maxBatch
    }

    /// Stores `ping` and returns once it is committed.
    public func write(_ ping: IncomingPing) async throws -> Outcome {
        try await withCheckedThrowingContinuation { continuation in
            waiting.append((ping, continuation))
            if !writing {
                writing = true
                Task { await self.drain() }
            }
        }
    }

    private func drain() async {
        while !waiting.isEmpty {
            let batch = Array(waiting.prefix(maxBatch))
            waiting.removeFirst(batch.count)
            batches += 1
            do {
                let stored = try await store.insert(
                    batch.map(\.ping), receivedAt: Int64(Date.now.timeIntervalSince1970 * 1000))
                var claimed = Set<String>()
                for entry in batch {
                    let isNew = stored.contains(entry.ping.pingID) && claimed.insert(entry.ping.pingID).inserted
                    entry.continuation.resume(returning: isNew ? .stored : .duplicate)
                }
            } catch {
                batch.forEach { $0.continuation.resume(throwing: error) }
            }
        }
        writing = false
    }
}
