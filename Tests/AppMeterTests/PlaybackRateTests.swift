import AppMeter
import Foundation
import NielsenAppApi
import Testing

/// Playheads that do not advance by exactly one per call (docs/decisions.md C1, C1a): the seconds of
/// content covered are credited, each once, on positions alone; a seek credits nothing; playheads
/// in milliseconds are told to the app.
@Suite struct PlaybackRateTests {
    /// The rule, cell by cell: previous position, next position, seconds credited.
    @Test(arguments: [
        (10, 11, 1), (10, 12, 2), (10, 13, 3), (10, 14, 4),   // 1× to 4×, or a late report
        (10, 15, 0), (10, 40, 0),                              // a seek
        (10, 10, 0), (10, 9, 0), (10, 0, 0),                   // a repeat (0.5×, pause), a rewind
        (1_700_000_000, 1_700_000_002, 2),                     // live, at 2×
    ] as [(Int64, Int64, Int64)])
    func theRuleCellByCell(_ previous: Int64, _ next: Int64, _ credited: Int64) {
        var rule = PlayheadCrediting()
        #expect(rule.report(previous) == 0)
        #expect(rule.report(next) == credited)
        #expect(rule.reference == next)
    }

    @Test func extremePositionsNeverTrap() {
        var rule = PlayheadCrediting()
        #expect(rule.report(.max) == 0)
        #expect(rule.report(.min) == 0)
        #expect(rule.report(.max) == 0)
    }

    /// Content played through at `positions`, one call per wall second; returns the credit on the
    /// wire and the error codes heard.
    static func credited(_ positions: [Int64], wallSecondsPerCall: Double = 1) async -> (Int, [Int]) {
        let errors = ErrorCollector()
        let meter = MeterHarness(delegate: errors)
        meter.api.play()
        meter.api.loadMetadata(Fixtures.content())
        for position in positions {
            meter.clock.advance(by: wallSecondsPerCall)
            meter.api.playheadPosition(position)
        }
        meter.api.end()
        let credit = await meter.creditedOnTheWire()["content/vid345-67483"] ?? 0
        return (credit, errors.codes)
    }

    @Test func twiceTheSpeedCreditsTheContentCovered() async {
        let (credit, errors) = await Self.credited(Array(stride(from: 0, through: 60, by: 2)))
        #expect(credit == 60)
        #expect(errors.isEmpty)
    }

    @Test func oneAndAHalfTimesTheSpeed() async {
        // 0, 1, 3, 4, 6, 7 … 60: +1 and +2 in turn.
        let positions = (0...40).map { Int64($0 * 3 / 2) }
        let (credit, _) = await Self.credited(positions)
        #expect(credit == 60)
    }

    @Test func halfTheSpeedCreditsEachSecondOnce() async {
        let positions = (0...60).map { Int64($0 / 2) }   // 0, 0, 1, 1 … 30
        let (credit, _) = await Self.credited(positions)
        #expect(credit == 30)
    }

    @Test func aSeekCreditsNothingAndPlaybackGoesOnFromIt() async {
        let positions = Array(0...20) + Array(600...620)   // skipped ten minutes
        let (credit, _) = await Self.credited(positions.map(Int64.init))
        #expect(credit == 40)
    }

    @Test func creditDoesNotDependOnWallTime() async {
        let positions = Array(stride(from: Int64(0), through: 120, by: 2))
        let (realTime, _) = await Self.credited(positions)
        let (rig, _) = await Self.credited(positions, wallSecondsPerCall: 0.01)
        #expect(realTime == 120)
        #expect(rig == realTime)
    }

    @Test func vodPlayheadsInMillisecondsAreToldOnce() async {
        let (credit, errors) = await Self.credited((0...10).map { Int64($0) * 1_000 })
        #expect(credit == 0)
        #expect(errors == [MeterEventCode.invalidPlayheadPosition.rawValue])
    }

    /// C1a: 13 digits are Unix milliseconds (the simplified guide's `"1501225191747"`), read as their
    /// second; a millisecond clock stepping by 1,000 credits a second a call, live, without error.
    @Test func thirteenDigitPlayheadsAreUnixMillisecondsAndCreditTheirSeconds() async {
        let start: Int64 = 1_501_225_191_747
        let (credit, errors) = await Self.credited((0...60).map { start + Int64($0) * 1_000 })
        #expect(credit == 60)
        #expect(errors.isEmpty)
        #expect(PlayheadCheck.seconds(start) == 1_501_225_191)
        #expect(PlayheadCheck.seconds(1_501_225_191) == 1_501_225_191)
    }

    /// Other values past the year 5000 as seconds (12 digits, or 14 and more) are error 15 at once.
    @Test(arguments: [170_000_000_000, 17_000_000_000_000] as [Int64])
    func otherPlayheadsPastTheYear5000AreRefusedAtOnce(_ position: Int64) async {
        let errors = ErrorCollector()
        let meter = MeterHarness(delegate: errors)
        meter.api.loadMetadata(Fixtures.content(length: "86400"))
        meter.api.playheadPosition(position)
        await meter.settle()
        #expect(errors.codes == [15])
        #expect(errors.descriptions.first?.contains("pass seconds") == true)
    }
}
