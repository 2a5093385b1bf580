/// Group commit: concurrent requests hand their items to one writer, which commits whatever has
/// accumulated in one statement (one commit, one sync) while the previous batch was being
/// written. Each request still returns only after its own item is committed.
public actor GroupCommit<Item: Sendable, Outcome: Sendable> {
    /// Commits a batch and returns one outcome per item, in order.
    public typealias Commit = @Sendable ([Item]) async throws -> [Outcome]

    private let commit: Commit
    private let maxBatch: Int
    private var waiting: [(item: Item, continuation: CheckedContinuation<Outcome, Error>)] = []
    private var writing = false
    /// Batches committed so far (for load checks: far fewer than items under load).
    public private(set) var batches = 0

    /// Creates a writer committing at most `maxBatch` items per statement with `commit`.
    public init(maxBatch: Int = 500, commit: @escaping Commit) {
        self.maxBatch = maxBatch
        self.commit = commit
    }

    /// Commits `item` and returns its outcome once it is committed.
    public func write(_ item: Item) async throws -> Outcome {
        try await withCheckedThrowingContinuation { continuation in
            waiting.append((item, continuation))
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
                let outcomes = try await commit(batch.map(\.item))
                for (entry, outcome) in zip(batch, outcomes) { entry.continuation.resume(returning: outcome) }
            } catch {
                batch.forEach { $0.continuation.resume(throwing: error) }
            }
        }
        writing = false
    }
}
