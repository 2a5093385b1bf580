@testable import CensusHTTP
@testable import CensusPostgres
@testable import CensusSQLite
@testable import CensusStore
@testable import MeterTables
import NIOCore
import Testing

/// A connection's timeline as data: which deadline holds at each step of a request.
@Suite struct ConnectionStateTests {
    static let timeouts = ConnectionTimeouts(header: .seconds(10), body: .seconds(30), idle: .seconds(60), write: .seconds(20))
    static let accepted = NIODeadline.uptimeNanoseconds(1_000_000_000_000)

    static func at(_ seconds: Int64) -> NIODeadline { accepted + .seconds(seconds) }

    @Test func aNewConnectionHasTheHeaderTimeFromItsAcceptEvenAfterALateFirstByte() {
        var state = ConnectionState(accepted: Self.accepted, timeouts: Self.timeouts)
        #expect(state.deadline?.at == Self.at(10))
        #expect(state.deadline?.expiry == .header)
        state.bytesArrived(at: Self.at(9))
        #expect(state.deadline?.at == Self.at(10))
        #expect(state.mayAnswerTimeout(.header))
    }

    @Test func aRequestMovesFromHeadToBodyToTheCensusAndBackToIdle() {
        var state = ConnectionState(accepted: Self.accepted, timeouts: Self.timeouts)
        state.bytesArrived(at: Self.at(1))
        state.requestHead(at: Self.at(2))
        #expect(state.deadline?.at == Self.at(32))
        #expect(state.deadline?.expiry == .body)
        #expect(!state.awaitingAnswer)
        #expect(state.mayAnswerTimeout(.body))
        state.bytesArrived(at: Self.at(3))  // the body's bytes start no head
        #expect(state.deadline?.expiry == .body)
        state.requestEnd()
        // The census's own time is not the sender's: no deadline while it answers.
        #expect(state.deadline == nil)
        #expect(state.awaitingAnswer)
        state.responseEnd(at: Self.at(100))
        #expect(state.deadline?.at == Self.at(160))
        #expect(state.deadline?.expiry == .idle)
        #expect(!state.awaitingAnswer)
        #expect(!state.mayAnswerTimeout(.idle))
    }

    @Test func theNextHeadOnAKeptAliveConnectionCountsFromItsFirstByte() {
        var state = ConnectionState(accepted: Self.accepted, timeouts: Self.timeouts)
        state.requestHead(at: Self.at(0))
        state.requestEnd()
        state.responseEnd(at: Self.at(1))
        state.bytesArrived(at: Self.at(50))
        #expect(state.deadline?.at == Self.at(60))
        #expect(state.deadline?.expiry == .header)
    }

    @Test func aHeadStartedWhileAnAnswerIsOwedIsTimedButNotAnsweredWith408() {
        var state = ConnectionState(accepted: Self.accepted, timeouts: Self.timeouts)
        state.requestHead(at: Self.at(0))
        state.requestEnd()
        state.bytesArrived(at: Self.at(1))
        #expect(state.deadline?.at == Self.at(11))
        #expect(state.awaitingAnswer)
        #expect(!state.mayAnswerTimeout(.header))
    }

    @Test func everyDeadlineARequestSetsIsAtLeastATickAway() {
        #expect(Self.timeouts.tick == .seconds(10))
        var state = ConnectionState(accepted: Self.accepted, timeouts: Self.timeouts)
        state.requestHead(at: Self.at(0))
        state.requestEnd()
        state.responseEnd(at: Self.at(0))
        for (now, step) in [(Int64(5), "bytes"), (5, "head"), (6, "end"), (7, "response")] {
            switch step {
            case "bytes": state.bytesArrived(at: Self.at(now))
            case "head": state.requestHead(at: Self.at(now))
            case "end": state.requestEnd()
            default: state.responseEnd(at: Self.at(now))
            }
            if let deadline = state.deadline { #expect(deadline.at >= Self.at(now) + Self.timeouts.tick, "\(step)") }
        }
    }

    @Test func answersWaitingUnreadTimeTheConnectionEvenWhileTheCensusWorksAndDoNotSpareIt() {
        var state = ConnectionState(accepted: Self.accepted, timeouts: Self.timeouts)
        state.requestHead(at: Self.at(0))
        state.requestEnd()
        #expect(state.deadline == nil)
        #expect(state.awaitingAnswer)
        state.writability(false, at: Self.at(5))
        #expect(state.deadline?.at == Self.at(25))
        #expect(state.deadline?.expiry == .write)
        #expect(!state.awaitingAnswer)
        #expect(!state.mayAnswerTimeout(.write))
        // A later unwritable report keeps the first time; writable again clears it.
        state.writability(false, at: Self.at(10))
        #expect(state.deadline?.at == Self.at(25))
        state.writability(true, at: Self.at(12))
        #expect(state.deadline == nil)
        #expect(state.awaitingAnswer)
    }

    @Test func theEarlierOfAReadDeadlineAndTheWriteDeadlineHolds() {
        var state = ConnectionState(accepted: Self.accepted, timeouts: Self.timeouts)
        // A head begun at 0 expires at 10, before the write deadline at 21.
        state.bytesArrived(at: Self.at(0))
        state.writability(false, at: Self.at(1))
        #expect(state.deadline?.at == Self.at(10))
        #expect(state.deadline?.expiry == .header)
        // Idle (60 s) is later than the write deadline.
        state.requestHead(at: Self.at(2))
        state.requestEnd()
        state.responseEnd(at: Self.at(3))
        #expect(state.deadline?.at == Self.at(21))
        #expect(state.deadline?.expiry == .write)
    }

    @Test func eachAnswerGivesBackTheBodyBytesOfItsOwnRequest() {
        var state = ConnectionState(accepted: Self.accepted, timeouts: Self.timeouts)
        state.requestHead(at: Self.at(0))
        state.bodyAnnounced(120)
        #expect(state.bodyArrived(100) == 0)  // within its announced length
        #expect(state.bodyArrived(50) == 30)  // 30 beyond it
        state.requestEnd()
        state.requestHead(at: Self.at(1))  // pipelined, chunked
        #expect(state.bodyArrived(7) == 7)
        #expect(state.heldBodyBytes == 157)
        #expect(state.responseEnd(at: Self.at(2)) == 150)
        #expect(state.heldBodyBytes == 7)
        #expect(state.responseEnd(at: Self.at(3)) == 7)
        #expect(state.responseEnd(at: Self.at(4)) == 0)
        #expect(state.bodyArrived(9) == 0)  // no request in progress: nothing held
        #expect(state.heldBodyBytes == 0)
    }
}
