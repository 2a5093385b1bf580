import AppMeter
import Testing

/// The credit each command hands its owner (``CreditChanges``), which the owner adds to the
/// totals it publishes instead of copying the core's.
@Suite struct CreditChangesTests {
    private static func totals(_ changes: CreditChanges) -> [AssetKey: Int64] {
        var totals: [AssetKey: Int64] = [:]
        changes.forEach { totals[$0.key, default: 0] += $0.seconds }
        return totals
    }

    /// Each row: the credits added in order; the changes expected; whether it overflowed.
    @Test(arguments: [
        ([("a", 1)], ["a": 1], false),
        ([("a", 1), ("a", 2), ("b", 3)], ["a": 3, "b": 3], false),
        ([("a", 1), ("b", 1), ("c", 1), ("d", 1), ("a", 5)], ["a": 6, "b": 1, "c": 1, "d": 1], false),
        ([("a", 1), ("b", 1), ("c", 1), ("d", 1), ("e", 1)], ["a": 1, "b": 1, "c": 1, "d": 1], true),
    ] as [([(String, Int64)], [String: Int64], Bool)])
    func changesMergeByAssetAndOverflowPastTheirCapacity(added: [(String, Int64)], expected: [String: Int64], overflows: Bool) {
        var changes = CreditChanges()
        #expect(changes.isEmpty)
        for (id, seconds) in added { changes.add(AssetKey(.content, id), seconds) }
        #expect(Self.totals(changes) == Dictionary(uniqueKeysWithValues: expected.map { (AssetKey(.content, $0.key), $0.value) }))
        #expect(changes.overflowed == overflows)
        #expect(!changes.isEmpty)
    }

    /// Content, an ad inside it, the content again and a stop: the changes taken after each
    /// command, summed, are the core's totals exactly; taking them empties them.
    @Test func eachCommandsChangesSumToTheCoresTotals() {
        var core = CoreDriver(durationPingInterval: 10, checkpointInterval: 5)
        var summed: [AssetKey: Int64] = [:]
        func run(_ command: MeterCommand, after seconds: Double = 0) {
            core(command, after: seconds)
            let changes = core.core.takeCredits()
            #expect(!changes.overflowed)
            #expect(core.core.takeCredits().isEmpty)
            changes.forEach { summed[$0.key, default: 0] += $0.seconds }
        }
        run(.play(channelName: "C"))
        run(CoreDriver.content())
        for second in 0...20 { run(.playhead(Int64(second)), after: 1) }
        run(CoreDriver.ad("ad1"))
        for second in 0...14 { run(.playhead(Int64(second)), after: 1) }
        run(CoreDriver.content())
        for second in 21...40 { run(.playhead(Int64(second)), after: 1) }
        run(.stop, after: 1)
        #expect(summed == core.core.progress.creditedSeconds)
        #expect(summed[AssetKey(.content, "vid1")] == 40 && summed[AssetKey(.ad, "ad1")] == 14)
    }
}
