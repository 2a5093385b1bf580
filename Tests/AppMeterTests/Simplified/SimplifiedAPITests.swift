import AppMeter
import Foundation
import NielsenAppApi
import Testing

/// The simplified API (the simplified guide): `trackEvent` sends the pings the standard API's
/// documented sequence sends, for the guide's flows and for random ones.
@Suite struct SimplifiedAPITests {
    static func both(_ steps: [FlowStep]) async -> (simplified: [String], standard: [String]) {
        let appInfo = MeterHarness.appInfo()
        let tracker = MeterHarness(appInfo: appInfo, simplified: true)
        let api = MeterHarness(appInfo: appInfo)
        return (await tracker.run(steps), await api.run(steps))
    }

    static func content(_ range: ClosedRange<Int64>) -> [FlowStep] { range.map { .content($0) } }
    static func ad(_ id: String, _ type: String, seconds: Int64) -> [FlowStep] {
        (0..<seconds).map { .ad(id: id, type: type, position: $0) }
    }

    @Test func contentOnly() async {
        let (simplified, standard) = await Self.both(Self.content(0...130) + [.complete])
        #expect(simplified.count == 4)
        #expect(simplified == standard)
    }

    @Test func prerollThenContent() async {
        let (simplified, standard) = await Self.both(Self.ad("AD1", "preroll", seconds: 20) + Self.content(0...70) + [.complete])
        #expect(simplified.map { $0.contains("c3=st,a") }.filter { $0 }.count == 2)
        #expect(simplified == standard)
    }

    @Test func contentWithTwoAdsResumesWhereItLeftOff() async {
        let steps = Self.content(0...40) + Self.ad("AD1", "midroll", seconds: 15) + Self.ad("AD2", "midroll", seconds: 15)
            + Self.content(41...100) + [.complete]
        let (simplified, standard) = await Self.both(steps)
        #expect(simplified == standard)
        #expect(simplified.filter { $0.contains("at=view") && $0.contains("c3=st,c") }.count == 1)
    }

    @Test func pauseAndResume() async {
        let steps = Self.content(0...30) + [.pause, .wait(120)] + Self.content(31...80) + [.complete]
        let (simplified, standard) = await Self.both(steps)
        #expect(simplified == standard)
    }

    @Test func staticPageThenVideo() async {
        let steps: [FlowStep] = [.staticPage, .wait(45)] + Self.content(0...20) + [.complete]
        let (simplified, standard) = await Self.both(steps)
        #expect(simplified.first?.contains("rt=text") == true)
        #expect(simplified == standard)
    }

    /// Random valid flows: content in pieces, ad breaks with fresh ads, pauses of up to ten
    /// minutes, a static page; both APIs send the same pings.
    @Test(arguments: 1...12) func randomFlowsMatchTheStandardSequence(seed: UInt64) async {
        var random = SeededRandom(seed: seed)
        var steps: [FlowStep] = random.next(upperBound: 2) == 0 ? [] : Self.ad("PRE\(seed)", "preroll", seconds: 5 + Int64(random.next(upperBound: 20)))
        var position: Int64 = 0
        for piece in 0..<(1 + random.next(upperBound: 4)) {
            let length = Int64(10 + random.next(upperBound: 90))
            steps += Self.content(position...(position + length))
            position += length + 1
            switch random.next(upperBound: 4) {
            case 0: steps += [.pause, .wait(1 + random.next(upperBound: 600))]
            case 1: steps += (0..<(1 + random.next(upperBound: 2))).flatMap { Self.ad("MID\(seed)-\(piece)-\($0)", "midroll", seconds: 5 + Int64(random.next(upperBound: 25))) }
            case 2: steps += [.staticPage, .wait(random.next(upperBound: 90))]
            default: steps += [.wait(random.next(upperBound: 5))]
            }
        }
        steps.append(.complete)
        let (simplified, standard) = await Self.both(steps)
        let differ = zip(simplified, standard).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(simplified.count, standard.count)
        #expect(simplified == standard, "ping \(differ) differs in flow \(steps)")
        #expect(!simplified.isEmpty)
    }
}

/// A small deterministic generator (SplitMix64), so a failing seed replays.
struct SeededRandom {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next(upperBound: Int) -> Int {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int((z ^ (z >> 31)) % UInt64(upperBound))
    }
}
