import AppMeter
import Foundation
import MeterWire
import NielsenAppApi
import Testing

/// docs/protocol.md §2 "Refused pings": a ping the census refuses is never retried as it was; it
/// is sent once more without its descriptive fields, then dropped with its seconds counted, and
/// the instance that built it hears error 10 with the census's reason each time.
@Suite struct RefusedPingTests {
    /// A census that refuses, by content, the pings `refusal` names a reason for (400 with the
    /// reason as the body, or a batch line in the answer), answers batches with `batchStatus`
    /// when set, and is unreachable while `offline`.
    final class RefusingCensus: PingTransport, Sendable {
        private let refusal: @Sendable (DecodedPing) -> String?
        private let status: Int
        private let state = Locked((requests: [TransportRequest](), offline: false, batchStatus: Int?.none))

        init(status: Int = 400, refusal: @escaping @Sendable (DecodedPing) -> String?) {
            self.status = status
            self.refusal = refusal
        }

        var offline: Bool {
            get { state.withLock { $0.offline } }
            set { state.withLock { $0.offline = newValue } }
        }

        var batchStatus: Int? {
            get { state.withLock { $0.batchStatus } }
            set { state.withLock { $0.batchStatus = newValue } }
        }

        /// Every ping attempt, a batch's lines included.
        var pings: [DecodedPing] { state.withLock { $0.requests }.flatMap(DecodedPing.all) }
        var requests: [TransportRequest] { state.withLock { $0.requests } }

        func send(_ request: TransportRequest) async -> TransportOutcome {
            if request.url.path.hasSuffix(WireRoute.config) {
                return .response(status: 200, retryAfter: nil, body: Data(RecordingTransport.config().utf8))
            }
            let (offline, batchStatus) = state.withLock { state in
                state.requests.append(request)
                return (state.offline, state.batchStatus)
            }
            if offline { return .failure("offline") }
            let pings = DecodedPing.all(in: request)
            guard request.url.path.hasSuffix(WireRoute.batch) else {
                guard let ping = pings.first, let reason = refusal(ping) else { return .response(status: 200, retryAfter: nil, body: Data()) }
                return .response(status: status, retryAfter: nil, body: Data((reason + "\n").utf8))
            }
            if let batchStatus { return .response(status: batchStatus, retryAfter: nil, body: Data("refused whole".utf8)) }
            let rejected = pings.enumerated().compactMap { index, ping in
                refusal(ping).map { BatchAnswer.Rejection(line: index + 1, reason: $0) }
            }
            let answer = BatchAnswer(stored: pings.count - rejected.count, duplicates: 0, rejected: rejected)
            return .response(status: 200, retryAfter: nil, body: try! JSONEncoder().encode(answer))
        }
    }

    /// Each ping's attempts, in order, by ping id (batches may group pings in any way).
    static func attempts(_ census: RefusingCensus) -> [String: [DecodedPing]] {
        Dictionary(grouping: census.pings) { $0["pingid"] ?? "" }
    }

    /// Plays 130 s of content, then ends it: a view, two 60 s pings and a 10 s one.
    static func watch(_ census: RefusingCensus, errors: ErrorCollector = ErrorCollector()) async -> MeterHarness {
        let meter = MeterHarness(delegate: errors, census: census)
        meter.api.play(["channelName": "Channel"])
        meter.api.loadMetadata(Fixtures.content())
        meter.play(0...130)
        meter.api.end()
        await meter.settle()
        return meter
    }

    @Test func aRefusedTitleCostsNoCreditThePingGoesOnceMoreWithoutItsDescription() async {
        let census = RefusingCensus { $0["tl"]?.isEmpty == false ? "tl is not taken by this census" : nil }
        let errors = ErrorCollector()
        let meter = await Self.watch(census, errors: errors)
        let attempts = Self.attempts(census)
        // Each ping twice: as built, then with its descriptive fields emptied; the same id and credit.
        #expect(attempts.count == 4)
        #expect(attempts.values.map { $0.last!.credited }.sorted() == [0, 10, 60, 60])
        for (built, plain) in attempts.values.map({ ($0.first!, $0.last!) }) {
            #expect(attempts[built["pingid"]!]!.count == 2)
            #expect(built["tl"] == "Program S3, EP1" && built["c27"] == plain["c27"] && built["c61"] == plain["c61"])
            #expect(plain["tl"] == "" && plain["cg"] == "" && plain["c33"] == "segB," && plain["asn"] == "")
            #expect(plain["c13"] == built["c13"] && plain["c59"] == built["c59"] && plain["ai"] == built["ai"])
        }
        #expect(errors.codes == Array(repeating: MeterEventCode.failedSendPing.rawValue, count: 4))
        // Alone ("HTTP 400: …") or in a batch ("in a batch: …"), as the upload found them queued.
        #expect(errors.descriptions.allSatisfy {
            $0.contains(": tl is not taken by this census") && $0.contains("sent once more without its descriptive fields")
        })
        #expect(meter.api.meter!.diagnostics.counters
                == DeliveryCounters(delivered: 4, rejected: 0, retried: 0, resentWithoutDescription: 4))
    }

    @Test func aPingRefusedForItsCreditIsDroppedAfterOneMoreTryAndItsSecondsAreCounted() async throws {
        let reason = "c27 credits 60 seconds, more than this census takes"
        let census = RefusingCensus { $0.credited == 60 ? reason : nil }
        let errors = ErrorCollector()
        let meter = await Self.watch(census, errors: errors)
        // The two 60 s pings: each as built and once plain, never a third time; the others once.
        #expect(Self.attempts(census).values.map { "\($0.count)×\($0[0].credited)" }.sorted() == ["1×0", "1×10", "2×60", "2×60"])
        let counters = meter.api.meter!.diagnostics.counters
        #expect(counters == DeliveryCounters(delivered: 2, rejected: 2, retried: 0, rejectedSeconds: 120, resentWithoutDescription: 2))
        #expect(meter.api.meter!.diagnostics.dictionary["dropped.rejectedSeconds"] as? Int64 == 120)
        let last = try #require(errors.descriptions.last)
        #expect(last.contains("HTTP 400: \(reason)") && last.contains("Not sent again")
                && last.contains("60 credited seconds are lost (counted in dropped.rejectedSeconds)"))
        #expect(errors.descriptions.count == 4)
        #expect(meter.api.lastErrorDict["eventCode"] as? Int == MeterEventCode.failedSendPing.rawValue)
    }

    @Test func aRefusalOfTheSenderIsNotResentAndItsSecondsAreCounted() async throws {
        let census = RefusingCensus(status: 403) { $0.credited > 0 ? "appid is not registered" : nil }
        let errors = ErrorCollector()
        let meter = await Self.watch(census, errors: errors)
        #expect(Self.attempts(census).values.map { "\($0.count)×\($0[0].credited)" }.sorted() == ["1×0", "1×10", "1×60", "1×60"])
        #expect(meter.api.meter!.diagnostics.counters == DeliveryCounters(delivered: 1, rejected: 3, rejectedSeconds: 130))
        #expect(try #require(errors.descriptions.first).contains("HTTP 403: appid is not registered"))
    }

    @Test func refusedLinesOfABatchAreResentWithoutTheirDescription() async {
        let census = RefusingCensus { $0["tl"]?.isEmpty == false && $0.credited == 60 ? "tl is not taken" : nil }
        census.offline = true
        let meter = MeterHarness(census: census)
        meter.api.play()
        meter.api.loadMetadata(Fixtures.content())
        meter.play(0...130)
        meter.api.end()
        await meter.processed()
        census.offline = false
        await meter.settle()
        #expect(census.requests.contains { $0.url.path.hasSuffix(WireRoute.batch) })
        let counters = meter.api.meter!.diagnostics.counters
        #expect(counters.delivered == 4 && counters.rejected == 0 && counters.resentWithoutDescription == 2)
        let plain = census.pings.filter { $0.credited == 60 && $0["tl"] == "" }
        #expect(Set(plain.map { $0["pingid"] }).count == 2)
    }

    @Test func aBatchRefusedWholeIsSentAsSinglePings() async {
        let census = RefusingCensus { _ in nil }
        census.offline = true
        census.batchStatus = 400
        let meter = MeterHarness(census: census)
        meter.api.play()
        meter.api.loadMetadata(Fixtures.content())
        meter.play(0...130)
        meter.api.end()
        await meter.processed()
        census.offline = false
        await meter.settle()
        #expect(census.requests.contains { $0.url.path.hasSuffix(WireRoute.batch) })
        #expect(meter.api.meter!.diagnostics.counters.delivered == 4)
        #expect(meter.api.meter!.diagnostics.counters.rejected == 0)
    }
}
