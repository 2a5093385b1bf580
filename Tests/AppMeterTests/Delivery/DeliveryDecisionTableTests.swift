import Foundation
import Testing
@testable import AppMeter
@testable import BrowserCore

/// The delivery decisions both SDKs make, from one table (Fixtures/delivery-decisions.json) that
/// scripts/browser-check walks through the page's engine too (decisions.md B6).
struct DeliveryDecisionTableTests {
    struct Table: Decodable {
        struct Outcome: Decodable {
            let status: Int
            let retryAfter: Double?
        }
        struct Sequence: Decodable {
            let name: String
            let random: Double
            let outcomes: [Outcome]
            let decisions: [String]
        }
        struct Bound: Decodable {
            let queued: Int
            let overflow: Int
        }
        let sequences: [Sequence]
        let bounds: [Bound]
    }

    static let table: Table = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/delivery-decisions.json")
        return try! JSONDecoder().decode(Table.self, from: Data(contentsOf: url))
    }()

    static func transportOutcome(_ outcome: Table.Outcome) -> TransportOutcome {
        outcome.status == 0 ? .failure("offline")
            : .response(status: outcome.status, retryAfter: outcome.retryAfter, body: Data("refused".utf8))
    }

    /// The app SDK: each outcome handed to the delivery machine for one queued ping (with a title,
    /// so that it can be resent plain), the decision read from what the machine did.
    @Test(arguments: table.sequences.indices)
    func theAppSDKDecidesAsTheTableSays(_ index: Int) throws {
        let sequence = Self.table.sequences[index]
        let now = DeliveryMachineTests.now
        var machine = DeliveryMachine(policy: RetryPolicy(), bounds: QueueBounds())
        var decisions: [String] = []
        for (step, outcome) in sequence.outcomes.enumerated() {
            if machine.entries.isEmpty {
                _ = machine.append(DeliveryMachineTests.record("p\(step)", title: "A title"), origin: nil, at: now)
            }
            var actions: [DeliveryAction] = []
            let attempt = try #require(machine.nextAttempt(base: DeliveryMachineTests.base, at: now, into: &actions))
            let before = machine.counters
            let after = machine.received(Self.transportOutcome(outcome), for: attempt, at: now, random: sequence.random, into: &actions)
            switch after {
            case .backOff(let until):
                decisions.append("retry \(Int64(((until - now) * 1000).rounded()))")
                machine.backoffEnded()
            case .next where machine.counters.delivered > before.delivered: decisions.append("delivered")
            case .next where machine.counters.resentWithoutDescription > before.resentWithoutDescription: decisions.append("resend")
            case .next where machine.counters.rejected > before.rejected: decisions.append("drop")
            case .next: decisions.append("?")
            }
        }
        #expect(decisions == sequence.decisions, "\(sequence.name)")
    }

    /// The browser SDK's engine, as the page asks it (`am_outcome`: status 0 for no answer, a
    /// negative Retry-After for none).
    @Test(arguments: table.sequences.indices)
    func thePagesEngineDecidesAsTheTableSays(_ index: Int) {
        let sequence = Self.table.sequences[index]
        var delivery = BrowserDelivery()
        let decisions = sequence.outcomes.map {
            BrowserDelivery.line(delivery.decide(status: $0.status, retryAfter: $0.retryAfter ?? -1, random: sequence.random))
        }
        #expect(decisions == sequence.decisions, "\(sequence.name)")
    }

    @Test func bothQueuesDropTheOldestOverTheCountBound() {
        for bound in Self.table.bounds {
            #expect(BrowserDelivery().bounds.overflow(count: bound.queued) == bound.overflow)
            #expect(QueueBounds().overflow(count: bound.queued) == bound.overflow)
        }
    }
}
