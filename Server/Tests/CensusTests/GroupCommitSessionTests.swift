@testable import CensusHTTP
@testable import CensusPostgres
@testable import CensusSQLite
@testable import CensusStore
@testable import MeterTables
import NIOConcurrencyHelpers
import Testing

/// A group-commit writer's session (``GroupCommit/Session``): the scope in which a database holds
/// a connection for consecutive batches (PostgreSQL). Each commit must run inside the session it
/// belongs to, a writer must not open one per batch, and a failed batch must end its session.
@Suite struct GroupCommitSessionTests {
    /// The session a commit ran in, as the test's session sets it (as PostgreSQL sets its connection).
    enum CurrentSession {
        @TaskLocal static var number: Int?
    }

    /// A writer whose sessions are numbered, whose commits wait for `gate` and record the session
    /// they ran in, and whose batches holding a number in `failing` throw.
    final class Recorder: Sendable {
        struct Failure: Error {}
        let sessions = NIOLockedValueBox(0)
        let commits = NIOLockedValueBox<[(batch: [Int], session: Int?)]>([])
        let (started, start) = AsyncStream.makeStream(of: [Int].self)
        let failing: Set<Int>
        let gates: [Int: Gate]

        init(failing: Set<Int> = [], gated: [Int] = []) {
            self.failing = failing
            gates = Dictionary(uniqueKeysWithValues: gated.map { ($0, Gate()) })
        }

        func writer() -> GroupCommit<Int, Int> {
            GroupCommit<Int, Int>(session: { [self] batches in
                let number = sessions.withLockedValue { $0 += 1; return $0 }
                await CurrentSession.$number.withValue(number) { await batches() }
            }) { [self] batch in
                start.yield(batch)
                for item in batch { await gates[item]?.wait() }
                commits.withLockedValue { $0.append((batch, CurrentSession.number)) }
                if !failing.isDisjoint(with: batch) { throw Failure() }
                return batch
            }
        }

        var committed: [[Int]: Int?] {
            Dictionary(uniqueKeysWithValues: commits.withLockedValue { $0 }.map { ($0.batch, $0.session) })
        }
    }

    /// Submits `items` at once (no task to wait for) and returns a stream of their answers.
    func submit(_ items: [Int], to writer: GroupCommit<Int, Int>) -> AsyncStream<(Int, Result<Int, any Error>)> {
        let (answers, answer) = AsyncStream.makeStream(of: (Int, Result<Int, any Error>).self)
        for item in items { writer.submit(item) { answer.yield((item, $0)) } }
        return answers
    }

    @Test func aWritersConsecutiveBatchesRunInOneSessionAndALaterOneInANewSession() async throws {
        let recorder = Recorder(gated: [0])
        let writer = recorder.writer()
        var started = recorder.started.makeAsyncIterator()
        var answers = submit([0], to: writer).makeAsyncIterator()
        #expect(await started.next() == [0])
        // The writer is busy with [0]: these wait, and follow in the same session.
        var later = submit([1, 2], to: writer).makeAsyncIterator()
        recorder.gates[0]?.open()
        #expect(try await answers.next()?.1.get() == 0)
        #expect(try await later.next()?.1.get() == 1)
        #expect(try await later.next()?.1.get() == 2)
        #expect(recorder.committed == [[0]: 1, [1, 2]: 1])
        // The queue emptied, so the writer left: the next item opens a new session.
        #expect(try await writer.write(3) == 3)
        #expect(recorder.committed[[3]] == 2)
        #expect(recorder.sessions.withLockedValue { $0 } == 2)
    }

    @Test func aFailedBatchEndsItsSessionAndWhatWaitsGoesOnInANewOne() async throws {
        let recorder = Recorder(failing: [0], gated: [0])
        let writer = recorder.writer()
        var started = recorder.started.makeAsyncIterator()
        var failed = submit([0], to: writer).makeAsyncIterator()
        #expect(await started.next() == [0])
        var next = submit([1], to: writer).makeAsyncIterator()
        recorder.gates[0]?.open()
        let answer = try #require(await failed.next())
        #expect(throws: Recorder.Failure.self) { try answer.1.get() }
        #expect(try await next.next()?.1.get() == 1)
        #expect(recorder.committed == [[0]: 1, [1]: 2])
    }

    @Test func aFailedBatchWithNothingWaitingOpensNoSessionForNothing() async throws {
        let recorder = Recorder(failing: [0])
        let writer = recorder.writer()
        await #expect(throws: Recorder.Failure.self) { try await writer.write(0) }
        // The writer has left without a second session; the next item opens one.
        #expect(recorder.sessions.withLockedValue { $0 } == 1)
        #expect(try await writer.write(1) == 1)
        #expect(recorder.committed == [[0]: 1, [1]: 2])
    }
}
