import AppMeter
import Testing

/// The test clock drives both "now" and "sleep".
@Suite struct VirtualClockTests {
    @Test func sleepersWakeWhenTheClockPassesTheirDeadlineInOrder() async throws {
        let clock = VirtualClock(start: 100)
        let woke = Locked([Double]())
        let sleepers = [3.0, 1.0, 2.0].map { delay in
            Task {
                try await clock.sleep(for: delay)
                woke.withLock { $0.append(delay) }
            }
        }
        while clock.pendingDeadlines.count < 3 { await Task.yield() }
        #expect(clock.pendingDeadlines.map(\.secondsSince1970) == [101, 102, 103])
        clock.advance(by: 1.5)
        try await sleepers[1].value
        #expect(woke.withLock { $0 } == [1])
        clock.advance(to: MeterInstant(secondsSince1970: 103))
        for sleeper in sleepers { try await sleeper.value }
        #expect(woke.withLock { $0 }.sorted() == [1, 2, 3])
        #expect(clock.pendingDeadlines.isEmpty)
    }

    @Test func aPassedDeadlineReturnsAtOnceAndCancellationEndsAWait() async {
        let clock = VirtualClock(start: 100)
        await #expect(throws: Never.self) { try await clock.sleep(until: MeterInstant(secondsSince1970: 99)) }
        let sleeper = Task { try await clock.sleep(for: 60) }
        while clock.pendingDeadlines.isEmpty { await Task.yield() }
        sleeper.cancel()
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        #expect(clock.pendingDeadlines.isEmpty)
        #expect(clock.now().secondsSince1970 == 100)
    }
}
