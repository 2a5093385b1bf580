import Foundation
import Testing
@testable import AppMeter
import MeterWire

/// The delivery queue's decisions, walked as values: no storage, no transport, no clock, no task.
struct DeliveryMachineTests {
    static let base = URL(string: "https://census.example")!
    static let now = MeterInstant(secondsSince1970: 1_700_000_000)
    let app = UUID()
    let other = UUID()

    static func record(_ id: String, seconds: Int64 = 10, route: String? = nil, title: String? = nil) -> PingRecord {
        var parameters = [PingParameter(PingField.creditedSeconds.name, String(seconds)), PingParameter(PingField.pingID.name, id)]
        if let title { parameters.append(PingParameter(PingField.title.name, title)) }
        let ping = Ping(id: id, kind: .duration, assetKind: .content, assetID: "a", creditedSeconds: seconds,
                        createdAt: now.secondsSince1970, parameters: parameters)
        return PingRecord(ping: ping, recovered: false, route: route)
    }

    func machine(bounds: QueueBounds = QueueBounds()) -> DeliveryMachine {
        var machine = DeliveryMachine(policy: RetryPolicy(), bounds: bounds)
        machine.attach(app)
        machine.attach(other)
        return machine
    }

    static func deletes(_ actions: [DeliveryAction]) -> Int {
        actions.filter { if case .delete = $0 { true } else { false } }.count
    }

    static func reports(_ actions: [DeliveryAction]) -> [(MeterEventCode, String, [UUID])] {
        actions.compactMap { if case .report(let code, let message, let to) = $0 { (code, message, to) } else { nil } }
    }

    @Test func aPingIsSavedBeforeAnyAttemptAndKeptInMemoryWhenTheSaveFails() throws {
        var machine = machine()
        let actions = machine.append(Self.record("p1"), origin: app, at: Self.now)
        guard case .save(let key, _, let serial) = try #require(actions.first) else { Issue.record("no save"); return }
        #expect(key.hasPrefix(DeliveryMachine.recordPrefix) && key.hasSuffix("p1"))
        let followUp = machine.saveFailed(serial: serial, CocoaError(.fileWriteNoPermission))
        #expect(machine.inMemoryOnly == 1 && machine.entries[0].key == nil && machine.counters.storageFailures == 1)
        #expect(Self.reports(followUp).map(\.2) == [[app]])
        // Delivered, it is forgotten without a storage delete.
        var after: [DeliveryAction] = []
        let attempt = try #require(machine.nextAttempt(base: Self.base, at: Self.now, into: &after))
        _ = machine.received(.response(status: 200, retryAfter: nil, body: Data()), for: attempt, at: Self.now, random: 0, into: &after)
        #expect(Self.deletes(after) == 0 && machine.inMemoryOnly == 0 && machine.entries.isEmpty)
    }

    @Test func aBacklogLeavesInOneBatchAndIsDeletedWhenAccepted() throws {
        var machine = machine()
        for index in 1...3 { _ = machine.append(Self.record("p\(index)"), origin: app, at: Self.now) }
        var actions: [DeliveryAction] = []
        let attempt = try #require(machine.nextAttempt(base: Self.base, at: Self.now, into: &actions))
        #expect(attempt.sent.count == 3 && attempt.request.method == "POST")
        #expect(attempt.request.url.absoluteString == WireRoute.url(WireRoute.batch, base: Self.base.absoluteString))
        let next = machine.received(.response(status: 200, retryAfter: nil, body: Data()), for: attempt, at: Self.now, random: 0,
                                    into: &actions)
        #expect(next == .next && Self.deletes(actions) == 3 && machine.counters.delivered == 3)
        #expect(machine.nextAttempt(base: Self.base, at: Self.now, into: &actions) == nil)
    }

    /// A batch answer's numbers are the collector's: counts past what was sent and lines out of
    /// range (down to `Int.min`) neither trap nor count more pings than were sent.
    @Test func aBatchAnswerOutOfRangeCountsNoMoreThanWasSent() throws {
        var machine = machine()
        for index in 1...3 { _ = machine.append(Self.record("p\(index)"), origin: app, at: Self.now) }
        var actions: [DeliveryAction] = []
        let attempt = try #require(machine.nextAttempt(base: Self.base, at: Self.now, into: &actions))
        let body = try JSONEncoder().encode(BatchAnswer(stored: .max, duplicates: .max, rejected: [
            .init(line: .min, reason: "x"), .init(line: 0, reason: "x"), .init(line: 4, reason: "x"),
        ]))
        let next = machine.received(.response(status: 200, retryAfter: nil, body: body), for: attempt, at: Self.now, random: 0,
                                    into: &actions)
        #expect(next == .next && machine.entries.isEmpty && machine.counters.delivered == 3 && machine.counters.rejected == 0)
    }

    @Test func aFailureBacksOffKeepsThePingsAndTellsTheirInstancesOnce() throws {
        var machine = machine()
        _ = machine.append(Self.record("mine"), origin: app, at: Self.now)
        var actions: [DeliveryAction] = []
        for failure in 1...2 {
            let attempt = try #require(machine.nextAttempt(base: Self.base, at: Self.now, into: &actions))
            let next = machine.received(.failure("offline"), for: attempt, at: Self.now, random: 0, into: &actions)
            #expect(next == .backOff(until: Self.now + RetryPolicy().backoff(failures: failure, random: 0)))
            #expect(machine.settlement(acceptingBackoff: true) == .retrying(at: Self.now + RetryPolicy().backoff(failures: failure, random: 0)))
            machine.backoffEnded()
        }
        #expect(Self.reports(actions).map(\.0) == [.networkConnectionFailure] && Self.reports(actions)[0].2 == [app])
        #expect(machine.entries.count == 1 && Self.deletes(actions) == 0 && machine.consecutiveFailures == 2)
        #expect(machine.mayCutBackoffShort)
        let attempt = try #require(machine.nextAttempt(base: Self.base, at: Self.now, into: &actions))
        _ = machine.received(.response(status: 429, retryAfter: 60, body: Data()), for: attempt, at: Self.now, random: 0,
                             into: &actions)
        #expect(!machine.mayCutBackoffShort)
    }

    @Test func aRefusedDescriptionIsResentPlainAloneThenARefusalDropsItWithItsSeconds() throws {
        var machine = machine()
        _ = machine.append(Self.record("titled", seconds: 30, title: "A title"), origin: app, at: Self.now)
        _ = machine.append(Self.record("next"), origin: other, at: Self.now)
        var actions: [DeliveryAction] = []
        var attempt = try #require(machine.nextAttempt(base: Self.base, at: Self.now, into: &actions))
        #expect(attempt.sent.count == 2)
        // A batch refused whole goes back to single pings.
        #expect(machine.received(.response(status: 400, retryAfter: nil, body: Data()), for: attempt, at: Self.now, random: 0,
                                 into: &actions) == .next)
        attempt = try #require(machine.nextAttempt(base: Self.base, at: Self.now, into: &actions))
        #expect(attempt.sent.map(\.record.ping.id) == ["titled"])
        _ = machine.received(.response(status: 400, retryAfter: nil, body: Data("no title here".utf8)), for: attempt, at: Self.now,
                             random: 0, into: &actions)
        #expect(actions.contains { if case .rewrite = $0 { true } else { false } })
        #expect(machine.entries[0].record.ping[PingField.title.name] == nil || machine.entries[0].record.ping[PingField.title.name] == "")
        attempt = try #require(machine.nextAttempt(base: Self.base, at: Self.now, into: &actions))
        #expect(attempt.sent.count == 1, "the plain ping goes alone, so the answer is about it")
        actions = []
        _ = machine.received(.response(status: 403, retryAfter: nil, body: Data()), for: attempt, at: Self.now, random: 0,
                             into: &actions)
        #expect(machine.counters.rejected == 1 && machine.counters.rejectedSeconds == 30)
        #expect(Self.reports(actions).map(\.2) == [[app]] && Self.deletes(actions) == 1)
    }

    @Test func boundsDropATraceFirstThenTheOldestAndTellItsInstance() {
        var machine = machine(bounds: QueueBounds(maxCount: 2, maxBytes: 1 << 20, maxAge: 86_400))
        _ = machine.append(Self.record("oldest", seconds: 7), origin: app, at: Self.now)
        _ = machine.append(Self.record("trace", seconds: 0, route: WireRoute.trace), origin: app, at: Self.now)
        _ = machine.append(Self.record("newest"), origin: other, at: Self.now)
        var actions: [DeliveryAction] = []
        machine.enforceBounds(at: Self.now, into: &actions)
        #expect(machine.entries.map(\.record.ping.id) == ["oldest", "newest"] && Self.reports(actions).isEmpty)
        _ = machine.append(Self.record("newer"), origin: other, at: Self.now)
        machine.enforceBounds(at: Self.now, into: &actions)
        #expect(machine.entries.map(\.record.ping.id) == ["newest", "newer"])
        #expect(machine.counters.droppedOverflow == 2 && Self.deletes(actions) == 2)
        let told = Self.reports(actions)
        #expect(told.count == 1 && told[0].2 == [app] && told[0].1.contains("7 credited seconds are lost"))
        machine.enforceBounds(at: Self.now + 86_401, into: &actions)
        #expect(machine.entries.isEmpty && machine.counters.droppedExpired == 2)
    }

    @Test func aDisabledInstanceHoldsItsOwnPingsOnlyAndAnEarlierProcesssWhenAllAre() throws {
        var machine = machine()
        machine.restore(Self.record("left"), key: "q-left")
        _ = machine.append(Self.record("mine"), origin: app, at: Self.now)
        _ = machine.append(Self.record("theirs"), origin: other, at: Self.now)
        machine.pause(app)
        var actions: [DeliveryAction] = []
        let attempt = try #require(machine.nextAttempt(base: Self.base, at: Self.now, into: &actions))
        #expect(attempt.sent.map(\.record.ping.id) == ["left"], "a batch stops before a held ping")
        machine.pause(other)
        #expect(machine.firstSendable() == nil && machine.settlement(acceptingBackoff: false) == .idle)
        let lifted = machine.detach(other)
        #expect(lifted)
        #expect(machine.firstSendable() == 2, "a detached instance's pings are no longer held")
        let resumed = machine.resume(app)
        let resumedTwice = machine.resume(app)
        #expect(resumed && !resumedTwice)
        #expect(machine.firstSendable() == 0, "the earlier process's ping goes once an attached instance is enabled")
    }
}
