import NIOConcurrencyHelpers
package import NIOCore

/// Group commit: concurrent requests hand their items to one writer, which commits whatever has
/// accumulated in one statement (one commit, one sync) while the previous batch was being
/// written. Each request still learns its outcome only after its own item is committed.
///
/// Items come in two ways: ``write(_:)`` for async callers, and ``submit(_:on:completion:)`` for
/// the ping fast path, which answers from its event loop without a task per ping. After a commit,
/// the completions of one event loop run in one job on that loop: a batch of 64 pings from two
/// event loops costs two cross-thread wake-ups, not 64 (docs/performance.md).
///
/// With `writers` above one, that many batches may be in flight at once: a database with a pool of
/// connections (PostgreSQL) inserts the next batch while the previous one waits for its commit to
/// reach the disk, instead of the whole census waiting on one round trip at a time. A writer beyond
/// the first starts only once `waitingForAnotherWriter` items wait: each batch costs the database a
/// statement and a commit, so a second writer for one or two items would make batches smaller,
/// not the census faster.
///
/// A writer commits its consecutive batches inside one session (``Sessions``), in which a database
/// can hold what it would otherwise take and give back for every batch (PostgreSQL: a connection
/// of the writers' own) and hands the commit that writes with it, in a task started where the
/// database wants it (``StartWriter``; PostgreSQL: on the event loop of its connections).
///
/// With an `answerBound`, no item waits longer than that for its outcome (census-decisions.md
/// S47): a batch that the database has not committed by then is answered
/// ``CensusError/noAnswer(within:)`` (it may still be committed: a retry of it is then a
/// duplicate), its writer leaves it to end on its own and opens a new session, and until a batch
/// commits again the writer is *stalled*: an item that arrives while a batch is in flight is
/// answered ``CensusError/storageUnavailable(reason:)`` at once, not queued (nothing of it is
/// stored), and the next item that finds no batch in flight is committed as a probe.
package final class GroupCommit<Item: Sendable, Outcome: Sendable>: Sendable {
    /// Commits a batch and returns one outcome per item, in order.
    package typealias Commit = @Sendable ([Item]) async throws -> [Outcome]
    /// Learns an item's outcome.
    package typealias Completion = @Sendable (Result<Outcome, any Error>) -> Void
    /// Runs `batches`, a writer's consecutive commits, in whatever scope the database wants them
    /// in, handing it the commit that writes in that scope; it must run `batches` exactly once. A
    /// batch that fails ends its session, so that the next batch starts from a new one (a new
    /// connection, when the failure was the connection's).
    package typealias Sessions = @Sendable (_ batches: (_ commit: @escaping Commit) async -> Void) async -> Void
    /// A session for a writer whose commit is the same in every session: runs `batches` in
    /// whatever scope the database wants them in, exactly once.
    package typealias Session = @Sendable (_ batches: () async -> Void) async -> Void
    /// Starts `writer`, a task that commits until nothing waits, wherever the database wants its
    /// writers to run; it must start `writer` exactly once.
    package typealias StartWriter = @Sendable (_ writer: @escaping @Sendable () async -> Void) -> Void

    private struct Waiting: Sendable {
        let item: Item
        let eventLoop: (any EventLoop)?
        let completion: Completion
        /// When it was submitted (monotonic): a bounded writer answers it by then plus the bound.
        let submitted: NIODeadline
    }

    private struct State: Sendable {
        var waiting: [Waiting] = []
        var writers = 0
        var batches = 0
        /// Since when a batch has gone unanswered past the bound, until a batch commits again.
        var stalledSince: NIODeadline?
        /// Whether a check of the oldest waiting item is scheduled (a bounded writer's watchdog).
        var watched = false

        /// Whether nothing waits, in which case the writer has left. Called under the lock that
        /// sees the queue empty, so an item submitted meanwhile is never left without a writer.
        mutating func writerLeavesIfIdle() -> Bool {
            guard waiting.isEmpty else { return false }
            writers -= 1
            return true
        }
    }

    private let sessions: Sessions
    private let startWriter: StartWriter
    private let maxBatch: Int
    private let maxWriters: Int
    private let waitingForAnotherWriter: Int
    private let answerBound: Duration?
    private let state = NIOLockedValueBox(State())

    /// Creates a writer committing at most `maxBatch` items per statement with `commit`, with at
    /// most `writers` batches in flight at once, each writer's consecutive batches in one `session`
    /// and its task started by `startWriter`. The first writer starts for one item; another only
    /// once `waitingForAnotherWriter` items wait for one.
    package convenience init(maxBatch: Int = 500, writers: Int = 1, waitingForAnotherWriter: Int = 1,
                            answerBound: Duration? = nil,
                            session: @escaping Session = { await $0() },
                            startWriter: @escaping StartWriter = { writer in Task { await writer() } },
                            commit: @escaping Commit) {
        self.init(batchesOf: maxBatch, writers: writers, waitingForAnotherWriter: waitingForAnotherWriter,
                  answerBound: answerBound, startWriter: startWriter) { batches in
            await session { await batches(commit) }
        }
    }

    /// A writer as ``init(maxBatch:writers:waitingForAnotherWriter:session:startWriter:commit:)``
    /// makes, whose `sessions` hand each session's batches the commit that writes with what the
    /// session holds.
    package static func committing(maxBatch: Int = 500, writers: Int = 1, waitingForAnotherWriter: Int = 1,
                                  answerBound: Duration? = nil,
                                  startWriter: @escaping StartWriter = { writer in Task { await writer() } },
                                  sessions: @escaping Sessions) -> GroupCommit {
        GroupCommit(batchesOf: maxBatch, writers: writers, waitingForAnotherWriter: waitingForAnotherWriter,
                    answerBound: answerBound, startWriter: startWriter, sessions: sessions)
    }

    private init(batchesOf maxBatch: Int, writers: Int, waitingForAnotherWriter: Int, answerBound: Duration?,
                 startWriter: @escaping StartWriter, sessions: @escaping Sessions) {
        self.answerBound = answerBound
        self.maxBatch = max(1, maxBatch)
        maxWriters = max(1, writers)
        self.waitingForAnotherWriter = max(1, waitingForAnotherWriter)
        self.startWriter = startWriter
        self.sessions = sessions
    }

    /// Batches committed so far (for load checks: far fewer than items under load).
    package var batches: Int {
        state.withLockedValue { $0.batches }
    }

    /// Writers committing now (a writer counts from the moment an item starts it).
    package var writersRunning: Int {
        state.withLockedValue { $0.writers }
    }

    /// Items waiting for a batch now: submitted, not yet taken into a commit (`/metrics`).
    package var waiting: Int {
        state.withLockedValue { $0.waiting.count }
    }

    /// Since when the database has left a batch unanswered past the bound, or nil while it answers
    /// (`/readyz`, `/metrics`).
    package var stalledSince: NIODeadline? {
        state.withLockedValue { $0.stalledSince }
    }

    /// Commits `item` and returns its outcome once it is committed.
    package func write(_ item: Item) async throws -> Outcome {
        try await withCheckedThrowingContinuation { continuation in
            submit(item) { continuation.resume(with: $0) }
        }
    }

    /// Commits `item` and calls `completion` once it is committed (or failed): on `eventLoop`
    /// when one is given, else on the writer's task.
    package func submit(_ item: Item, on eventLoop: (any EventLoop)? = nil, completion: @escaping Completion) {
        let submitted = NIODeadline.now()
        let outcome = state.withLockedValue { state -> (startsWriter: Bool, stalledFor: TimeAmount?, watch: Bool) in
            // Stalled with a batch in flight (the probe): answered now, not queued behind it.
            if let since = state.stalledSince, state.writers > 0 { return (false, submitted - since, false) }
            state.waiting.append(Waiting(item: item, eventLoop: eventLoop, completion: completion, submitted: submitted))
            let watch = answerBound != nil && !state.watched
            if watch { state.watched = true }
            guard state.writers < maxWriters,
                  state.writers == 0 || state.waiting.count >= waitingForAnotherWriter else { return (false, nil, watch) }
            state.writers += 1
            return (true, nil, watch)
        }
        if outcome.watch, let answerBound { watch(at: submitted + TimeAmount(answerBound), on: eventLoop) }
        if let stalledFor = outcome.stalledFor {
            let unanswered = stalledFor + (answerBound.map(TimeAmount.init) ?? .zero)
            let refusal = Result<Outcome, any Error>.failure(Self.notAnswering(for: unanswered))
            if let eventLoop { eventLoop.execute { completion(refusal) } } else { completion(refusal) }
        } else if outcome.startsWriter {
            startWriter { await self.drain() }
        }
    }

    /// The watchdog of a bounded writer: at `deadline`, the items that have waited the bound
    /// without being taken into a batch (their writer still opening its session, say, with a
    /// database that does not answer) are answered as the writer's stall answers them, and the
    /// next check is set for the oldest item left. One check at a time, only while items wait.
    private func watch(at deadline: NIODeadline, on eventLoop: (any EventLoop)?) {
        let check: @Sendable () -> Void = { [weak self] in self?.expireWaiting() }
        if let eventLoop {
            eventLoop.scheduleTask(deadline: deadline, check)
        } else {
            Task {
                try? await Task.sleep(for: .nanoseconds(max(0, (deadline - .now()).nanoseconds)))
                check()
            }
        }
    }

    private func expireWaiting() {
        guard let answerBound else { return }
        let bound = TimeAmount(answerBound)
        let now = NIODeadline.now()
        let (expired, since, next) = state.withLockedValue { state -> ([Waiting], NIODeadline, Waiting?) in
            let count = state.waiting.prefix { $0.submitted + bound <= now }.count
            let expired = Array(state.waiting.prefix(count))
            state.waiting.removeFirst(count)
            if !expired.isEmpty, state.stalledSince == nil { state.stalledSince = now }
            let next = state.waiting.first
            state.watched = next != nil
            return (expired, state.stalledSince ?? now, next)
        }
        if let next { watch(at: next.submitted + bound, on: next.eventLoop) }
        guard !expired.isEmpty else { return }
        let refusal = Result<Outcome, any Error>.failure(Self.notAnswering(for: now - since + bound))
        complete(expired, with: Array(repeating: refusal, count: expired.count))
    }

    /// What an item is answered while the writer is stalled: nothing of it was stored.
    static func notAnswering(for stalled: TimeAmount) -> CensusError {
        let seconds = max(0, stalled.nanoseconds / 1_000_000_000)
        return .storageUnavailable(reason: "the database has not answered a write for \(seconds) s or more; nothing of this request was stored")
    }

    /// Commits batches until nothing waits, in one session after another: a new one after a batch
    /// failed.
    private func drain() async {
        while true {
            var failed = false
            await sessions { commit in
                failed = await commitWhileWaiting(with: commit)
            }
            // After a failure with nothing waiting, no session is opened for nothing.
            guard failed, !state.withLockedValue({ $0.writerLeavesIfIdle() }) else { return }
        }
    }

    /// Commits batches until nothing waits (false) or a batch failed (true).
    private func commitWhileWaiting(with commit: @escaping Commit) async -> Bool {
        while true {
            let batch = state.withLockedValue { state -> [Waiting] in
                if state.writerLeavesIfIdle() { return [] }
                state.batches += 1
                guard state.waiting.count > maxBatch else {
                    defer { state.waiting.removeAll(keepingCapacity: true) }
                    return state.waiting
                }
                defer { state.waiting.removeFirst(maxBatch) }
                return Array(state.waiting.prefix(maxBatch))
            }
            guard !batch.isEmpty else { return false }
            if let answerBound, batch[0].submitted + TimeAmount(answerBound) <= .now() {
                // Waited the bound before its writer could send it: nothing of it is stored.
                complete(batch, with: Array(repeating: .failure(Self.notAnswering(for: TimeAmount(answerBound))), count: batch.count))
                stall()
                return true
            }
            do {
                let outcomes = try await bounded(batch, commit)
                guard outcomes.count == batch.count else { throw GroupCommitError.outcomeCountMismatch }
                if answerBound != nil { state.withLockedValue { $0.stalledSince = nil } }
                complete(batch, with: outcomes.map { .success($0) })
            } catch {
                complete(batch, with: Array(repeating: .failure(error), count: batch.count))
                if case CensusError.noAnswer = error { stall() }
                return true
            }
        }
    }

    /// `commit` of `batch`, given until its oldest item has waited the bound; past it, throws
    /// ``CensusError/noAnswer(within:)`` and leaves the commit to end on its own, its outcome
    /// unheard.
    private func bounded(_ batch: [Waiting], _ commit: @escaping Commit) async throws -> [Outcome] {
        let items = batch.map(\.item)
        guard let answerBound else { return try await commit(items) }
        let bound = TimeAmount(answerBound)
        let left = batch[0].submitted + bound - .now()
        return try await answering(within: left, bound: answerBound, timerOn: batch[0].eventLoop, startedBy: startWriter) {
            try await commit(items)
        }
    }

    /// A batch went unanswered: what waits is answered now (nothing of it is stored), and the
    /// writer is stalled until a batch commits.
    private func stall() {
        guard let answerBound else { return }
        let bound = TimeAmount(answerBound)
        let now = NIODeadline.now()
        let (dropped, since) = state.withLockedValue { state -> ([Waiting], NIODeadline) in
            let since = state.stalledSince ?? now
            state.stalledSince = since
            defer { state.waiting.removeAll() }
            return (state.waiting, since)
        }
        guard !dropped.isEmpty else { return }
        let refusal = Result<Outcome, any Error>.failure(Self.notAnswering(for: now - since + bound))
        complete(dropped, with: Array(repeating: refusal, count: dropped.count))
    }

    private func complete(_ batch: [Waiting], with results: [Result<Outcome, any Error>]) {
        var byLoop: [ObjectIdentifier: (loop: any EventLoop, calls: [(Completion, Result<Outcome, any Error>)])] = [:]
        for (waiting, result) in zip(batch, results) {
            guard let loop = waiting.eventLoop else {
                waiting.completion(result)
                continue
            }
            byLoop[ObjectIdentifier(loop), default: (loop, [])].calls.append((waiting.completion, result))
        }
        for (loop, calls) in byLoop.values {
            loop.execute {
                for (completion, result) in calls { completion(result) }
            }
        }
    }
}

/// A commit that broke its contract.
enum GroupCommitError: Error {
    /// The commit returned a different number of outcomes than items.
    case outcomeCountMismatch
}
