@testable import AppMeter
import Testing

/// The SDK's ping ids are UUIDv7s without dashes: a census's index of ping ids grows at its end
/// (docs/performance.md, "What the figures rest on").
@Suite struct PingIDTests {
    @Test func aPingIDIsAUUIDv7StampedWithTheClocksMilliseconds() {
        let clock = VirtualClock(start: 1_700_000_000.5)
        let id = RandomIdentifierSource(clock: clock).newPingID()
        #expect(id.count == 32)
        #expect(id.allSatisfy { "0123456789abcdef".contains($0) })
        #expect(id.prefix(12) == "018bcfe569f4")  // 1,700,000,000,500 ms
        #expect(Array(id)[12] == "7")
        #expect("89ab".contains(Array(id)[16]))
    }

    @Test func idsMadeLaterSortLaterAndIdsOfOneMillisecondDiffer() {
        let clock = VirtualClock(start: 1_700_000_000)
        let source = RandomIdentifierSource(clock: clock)
        var ids: [String] = []
        for _ in 0..<100 {
            ids.append(source.newPingID())
            clock.advance(by: 0.01)
        }
        #expect(ids == ids.sorted())
        let sameMillisecond = (0..<1_000).map { _ in source.newPingID() }
        #expect(Set(sameMillisecond).count == 1_000)
    }

    @Test func theDefaultEnvironmentStampsPingIDsWithItsOwnClock() {
        let environment = MeterEnvironment(clock: VirtualClock(start: 1_700_000_000.5))
        #expect(environment.identifiers.newPingID().hasPrefix("018bcfe569f4"))
    }

    /// The ids' random bits come in blocks of 64 words on Linux: words drawn across many blocks,
    /// from several threads at once, never repeat and are not blank.
    @Test func randomBitsDrawnAcrossBlocksAndThreadsNeverRepeat() async {
        let perTask = 300
        let words = await withTaskGroup(of: [UInt64].self) { group in
            for _ in 0..<4 {
                group.addTask {
                    var generator = SystemRandomBits()
                    return (0..<perTask).map { _ in generator.next() }
                }
            }
            return await group.reduce(into: [UInt64]()) { $0 += $1 }
        }
        #expect(words.count == 4 * perTask)
        #expect(Set(words).count == words.count)
        // Every bit position is set somewhere: no byte of the block was left unread.
        #expect(words.reduce(0, |) == UInt64.max)
    }

    @Test func sessionIDsAreThirtyTwoBase36CharactersAndDiffer() {
        let source = RandomIdentifierSource()
        let ids = (0..<200).map { _ in source.newSessionID() }
        #expect(ids.allSatisfy { $0.count == 32 && $0.allSatisfy { "0123456789abcdefghijklmnopqrstuvwxyz".contains($0) } })
        #expect(Set(ids).count == ids.count)
    }
}
