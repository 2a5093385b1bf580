import Foundation
package import NIOCore

/// The census's two group-commit writers (``GroupCommit``): pings, and the refused requests with
/// their reasons, so that a flood of bad requests costs as few commits as a flood of good ones.
package struct PingWriter: Sendable {
    /// What became of a ping.
    package enum Outcome: Sendable, Equatable {
        /// Stored for the first time.
        case stored
        /// Its ping id was already stored: credited once, not again.
        case duplicate
    }

    /// A refused request, as recorded.
    package struct Reject: Sendable {
        package var reason: String
        package var rawRequest: String
    }

    /// The longest a request waits for its write (census-decisions.md S47): a database that has
    /// not committed it by then (no leader, a partition) has it answered `503` with `Retry-After`,
    /// and later requests at once until a write commits again (``GroupCommit``).
    package static let answerBound: Duration = .seconds(5)

    private let pings: GroupCommit<IncomingPing, Outcome>
    private let rejects: GroupCommit<Reject, Void>

    /// Creates writers over `store`, writing at most `maxBatch` rows per statement, with as many
    /// batches in flight as the database can commit at once (``CensusDatabase/concurrentWriters``),
    /// each writer's batches with what its session holds (``CensusDatabase/withWriterSession(_:)``).
    package init(store: PingStore, maxBatch: Int = 500) {
        let database = store.database, clock = store.clock
        let writers = database.concurrentWriters, waiting = database.waitingForAnotherWriter
        let start: @Sendable (@escaping @Sendable () async -> Void) -> Void = { database.startWriter($0) }
        pings = .committing(maxBatch: maxBatch, writers: writers, waitingForAnotherWriter: waiting, answerBound: Self.answerBound,
                            startWriter: start) { batches in
            await database.withWriterSession { writer in
                await batches { batch in
                    let stored = try await store.insert(batch, receivedAt: clock.milliseconds(), with: writer)
                    var claimed = Set<String>()
                    return batch.map { ping in
                        let key = ping.key
                        return stored.contains(key) && claimed.insert(key).inserted ? .stored : .duplicate
                    }
                }
            }
        }
        rejects = .committing(maxBatch: maxBatch, writers: writers, waitingForAnotherWriter: waiting, answerBound: Self.answerBound,
                              startWriter: start) { batches in
            await database.withWriterSession { writer in
                await batches { batch in
                    try await store.recordRejects(batch.map { ($0.reason, $0.rawRequest) }, receivedAt: clock.milliseconds(), with: writer)
                    return batch.map { _ in () }
                }
            }
        }
    }

    /// Stores `ping` and returns once it is committed.
    package func write(_ ping: IncomingPing) async throws -> Outcome {
        try await pings.write(ping)
    }

    /// Stores `ping` and calls `completion` once it is committed: on `eventLoop` when one is given.
    package func submit(_ ping: IncomingPing, on eventLoop: (any EventLoop)?,
                       completion: @escaping GroupCommit<IncomingPing, Outcome>.Completion) {
        pings.submit(ping, on: eventLoop, completion: completion)
    }

    /// Records a refused request and returns once it is committed.
    package func recordReject(reason: String, rawRequest: String) async throws {
        try await rejects.write(Reject(reason: reason, rawRequest: rawRequest))
    }

    /// Records a refused request and calls `completion` once it is committed: on `eventLoop` when one is given.
    package func submitReject(reason: String, rawRequest: String, on eventLoop: (any EventLoop)?,
                             completion: @escaping GroupCommit<Reject, Void>.Completion) {
        rejects.submit(Reject(reason: reason, rawRequest: rawRequest), on: eventLoop, completion: completion)
    }

    /// Since when the database has left a ping batch unanswered past ``answerBound``, or nil while
    /// it answers.
    package var stalledSince: NIODeadline? { pings.stalledSince }

    /// Seconds since the database last answered a ping write while it is stalled, else 0 (`/metrics`, `/readyz`).
    package var stalledSeconds: Int {
        guard let since = stalledSince else { return 0 }
        return Int((NIODeadline.now() - since).nanoseconds / 1_000_000_000) + Int(Self.answerBound.components.seconds)
    }

    /// Whether the writer is stalled with its probe in flight: what `/readyz` answers `503` at once.
    /// Stalled with nothing in flight, the next ping is the probe, and `/readyz` asks the database
    /// itself: a load balancer that routes by it must be able to bring traffic back.
    package var probing: Bool { stalledSince != nil && pings.writersRunning > 0 }

    /// Ping batches written so far (for load checks: far fewer than pings under load).
    package var batches: Int { pings.batches }

    /// What each writer has waiting for a batch and how many batches it has in flight, now.
    package var queues: (pings: (waiting: Int, writers: Int), rejects: (waiting: Int, writers: Int)) {
        ((pings.waiting, pings.writersRunning), (rejects.waiting, rejects.writersRunning))
    }
}
