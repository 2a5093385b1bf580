@testable import CensusHTTP
@testable import CensusStore
import HTTPTypes
import NIOConcurrencyHelpers
import NIOCore
import Testing

/// A bounded group commit (census-decisions.md S47): while the database does not answer (no leader,
/// a partition), no request waits past the bound, and while it stays silent later requests are
/// answered at once instead of piling up behind the silent batch.
@Suite struct GroupCommitBoundTests {
    static let bound: Duration = .seconds(1)

    /// A database whose commits hang on a gate while `silent` says so, and commit otherwise.
    final class Database: Sendable {
        let silent = NIOLockedValueBox(true)
        let gate = Gate()
        let commits = NIOLockedValueBox<[[Int]]>([])

        func writer() -> GroupCommit<Int, Int> {
            GroupCommit<Int, Int>(answerBound: GroupCommitBoundTests.bound) { [self] batch in
                if silent.withLockedValue({ $0 }) { await gate.wait() }
                commits.withLockedValue { $0.append(batch) }
                return batch
            }
        }
    }

    func answer(_ item: Int, from writer: GroupCommit<Int, Int>) async -> (Result<Int, any Error>, Duration) {
        let started = ContinuousClock.now
        let result = await withCheckedContinuation { done in writer.submit(item) { done.resume(returning: $0) } }
        return (result, ContinuousClock.now - started)
    }

    @Test func aSilentDatabaseIsAnsweredAtTheBoundThenAtOnceUntilItAnswersAgain() async throws {
        let database = Database()
        let writer = database.writer()

        // The first request waits the bound, no longer, and is told it may have been stored.
        let (first, waited) = await answer(1, from: writer)
        #expect(waited >= Self.bound)
        guard case .failure(CensusError.noAnswer(let within)) = first else { Issue.record("\(first)"); return }
        #expect(within == Self.bound)
        #expect(writer.stalledSince != nil && writer.unansweredBatches == 1)
        #expect(CensusError.noAnswer(within: within).reply.status == .serviceUnavailable)
        #expect(CensusError.noAnswer(within: within).reply.retryAfterSeconds == 5)

        // The next is the probe: it goes to the database, which is still silent, and waits the bound.
        let probe = Task { await answer(2, from: writer) }
        while writer.writersRunning == 0 { await Task.yield() }
        // Meanwhile every other request is answered at once (the probe still hangs): nothing stored.
        for item in 3...5 {
            let (result, _) = await answer(item, from: writer)
            guard case .failure(CensusError.storageUnavailable(let reason)) = result else { Issue.record("\(result)"); return }
            #expect(reason.contains("nothing of this request was stored"))
        }
        let (probed, _) = await probe.value
        guard case .failure(CensusError.noAnswer) = probed else { Issue.record("\(probed)"); return }

        // The database answers again: the next request is stored, and the writer is no longer stalled.
        database.silent.withLockedValue { $0 = false }
        database.gate.open()   // the abandoned commits end on their own
        // The next probe finds it answering (on a loaded machine, perhaps the one after).
        var stored: Int?
        for attempt in 0..<20 where stored == nil {
            stored = try? await answer(6 + attempt * 100, from: writer).0.get()
            // A retry that comes while the last probe's writer is still leaving is answered at once.
            if stored == nil { try await Task.sleep(for: .milliseconds(100)) }
        }
        #expect(stored != nil)
        #expect(writer.stalledSince == nil)
        let (next, _) = await answer(7, from: writer)
        #expect(try next.get() == 7)
        // Items 3 to 5 never reached the database; 1 and 2 did (late), as the 503's text warns.
        let committed = Set(database.commits.withLockedValue { $0 }.joined())
        #expect(committed.isDisjoint(with: [3, 4, 5]) && committed.isSuperset(of: [1, 2, 7]))
    }

    @Test func anUnboundedWriterStillWaitsForItsDatabase() async throws {
        let gate = Gate()
        let writer = GroupCommit<Int, Int> { batch in
            await gate.wait()
            return batch
        }
        let answered = NIOLockedValueBox(false)
        writer.submit(1) { _ in answered.withLockedValue { $0 = true } }
        try await Task.sleep(for: Self.bound * 2)
        #expect(!answered.withLockedValue { $0 })
        gate.open()
        while !answered.withLockedValue({ $0 }) { await Task.yield() }
    }
}
