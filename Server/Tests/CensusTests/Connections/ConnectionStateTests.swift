@testable import Census
import NIOCore
import Testing

/// A connection's timeline as data: which deadline holds at each step of a request.
@Suite struct ConnectionStateTests {
    static let timeouts = ConnectionTimeouts(header: .seconds(10), body: .seconds(30), idle: .seconds(60))
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
}
