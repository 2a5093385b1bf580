@testable import CensusHTTP
@testable import CensusStore
import Hummingbird
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

        // What each refused request was told: unsent (nothing stored) or unanswered (it may be).
        var unsent: Set<Int> = []
        func classify(_ item: Int, _ result: Result<Int, any Error>, waited: Duration) {
            switch result {
            case .failure(CensusError.storageUnavailable(let reason)):
                #expect(reason.contains("nothing of this request was stored"))
                unsent.insert(item)
            case .failure(CensusError.noAnswer(let within)):
                // Sent and not answered: only at the bound.
                #expect(within == Self.bound && waited >= Self.bound)
            default:
                Issue.record("\(item): \(result)")
            }
        }

        // The first request waits the bound, no longer (the writer's own commit or, had its writer
        // started late, the watchdog), and the writer is stalled.
        let (first, waited) = await answer(1, from: writer)
        #expect(waited >= Self.bound)
        classify(1, first, waited: waited)
        #expect(writer.stalledSince != nil)
        #expect(CensusError.noAnswer(within: Self.bound).reply.status == .serviceUnavailable)
        #expect(CensusError.noAnswer(within: Self.bound).reply.retryAfterSeconds == 5)

        // Once item 1's writer has left, the next request is the probe: it goes to the database,
        // which is still silent, and waits the bound. Its writer counts from its submission.
        for _ in 0..<250 where writer.writersRunning > 0 { try await Task.sleep(for: .milliseconds(20)) }
        #expect(writer.writersRunning == 0)
        let probeSent = ContinuousClock.now
        let probeAnswer = NIOLockedValueBox<Result<Int, any Error>?>(nil)
        writer.submit(2) { result in probeAnswer.withLockedValue { $0 = result } }
        #expect(writer.writersRunning > 0)
        // Meanwhile the others are answered at once while the probe hangs (unsent); on a machine
        // so loaded that the probe has timed out and its writer left, one becomes the next probe.
        var atOnce = 0
        for item in 3...5 {
            let (result, waited) = await answer(item, from: writer)
            classify(item, result, waited: waited)
            if waited < Self.bound { atOnce += 1 }
        }
        #expect(atOnce > 0)
        for _ in 0..<250 where probeAnswer.withLockedValue({ $0 }) == nil { try await Task.sleep(for: .milliseconds(20)) }
        let probed = try #require(probeAnswer.withLockedValue { $0 })
        classify(2, probed, waited: ContinuousClock.now - probeSent)
        // Stalled with nothing in flight: `/readyz` then asks the database itself (PingWriter.probing).
        for _ in 0..<100 where writer.writersRunning > 0 { try await Task.sleep(for: .milliseconds(20)) }
        #expect(writer.writersRunning == 0 && writer.stalledSince != nil)

        // The database answers again: a request is stored, and the writer is no longer stalled.
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
        // What was answered unsent never reached the database, however long its abandoned
        // commits take to end.
        try await Task.sleep(for: .milliseconds(200))
        let committed = Set(database.commits.withLockedValue { $0 }.joined())
        #expect(unsent.isDisjoint(with: committed), "unsent \(unsent.sorted()), committed \(committed.sorted())")
        // Answered at once while the probe hung, they were never sent.
        if atOnce == 3 { #expect(unsent.isSuperset(of: [3, 4, 5])) }
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
        for _ in 0..<250 where !answered.withLockedValue({ $0 }) { try await Task.sleep(for: .milliseconds(20)) }
        #expect(answered.withLockedValue { $0 })
    }
}
