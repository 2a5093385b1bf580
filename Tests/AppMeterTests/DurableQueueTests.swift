@testable import AppMeter
import Foundation
import NielsenAppApi
import Testing

/// The durable queue: what survives a restart, what is skipped, what is dropped.
@Suite struct DurableQueueTests {
    @Test func queuedPingsSurviveARestartAndDamagedRecordsAreSkipped() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("appmeter-q-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // First "process": the collector is down, so the pings wait on disk.
        let first = MeterHarness(appInfo: MeterHarness.appInfo(extra: ["nol_storageDir": folder]))
        first.transport.script(Array(repeating: .failure("offline"), count: 30))
        first.api.play()
        first.api.loadMetadata(Fixtures.content())
        first.play(0...130)
        first.api.end()
        let records = { (try? FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasPrefix("q-") }) ?? [] }
        await first.processed()            // a ping is on disk before the call that built it is done
        #expect(records().count == 4)
        first.api.appDisableApi = true     // the first process stops sending (and "dies" below)
        await first.processed()
        #expect(records().count == 4)
        // Damage the store as a power loss would: a torn record, garbage, a stray temporary file.
        let whole = try Data(contentsOf: URL(fileURLWithPath: folder + "/" + records().sorted()[3]))
        try whole.prefix(whole.count / 2).write(to: URL(fileURLWithPath: folder + "/q-9999999999999-000001-torn"))
        try Data("not a record".utf8).write(to: URL(fileURLWithPath: folder + "/q-9999999999999-000002-junk"))
        try Data("half".utf8).write(to: URL(fileURLWithPath: folder + "/q-0000000000001-000003-x.tmp"))

        // Second "process": the same folder through another path, so a new queue opens it.
        let link = folder + "-link"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: folder)
        defer { try? FileManager.default.removeItem(atPath: link) }
        let second = MeterHarness(appInfo: MeterHarness.appInfo(extra: ["nol_storageDir": link]))
        await second.settle()
        let diagnostics = second.api.meter!.diagnostics
        #expect(diagnostics.counters.corruptRecords == 2)
        #expect(diagnostics.counters.delivered == 4)
        #expect(second.transport.pings.map(\.summary) == [
            "view content/vid345-67483 0", "timer content/vid345-67483 60",
            "timer content/vid345-67483 60", "timer content/vid345-67483 10",
        ])
        let left = try FileManager.default.contentsOfDirectory(atPath: folder)
        #expect(left.filter { $0.hasPrefix("q-") || $0.hasPrefix("cp-") || $0.hasSuffix(".tmp") }.isEmpty, "\(left)")
    }

    @Test func whenFullTheOldestPingsAreDroppedCountedAndReported() async {
        let errors = ErrorCollector()
        let meter = MeterHarness(delegate: errors, durationPingInterval: 1, queueBounds: QueueBounds(maxCount: 300))
        meter.transport.script(Array(repeating: .failure("offline"), count: 1_000))
        meter.api.play()
        meter.api.loadMetadata(Fixtures.content())
        meter.play(0...500)                      // 1 view + 500 one-second duration pings
        await meter.processed()
        #expect(meter.snapshot.pingsBuilt == 501)
        let diagnostics = meter.api.meter!.diagnostics
        #expect(diagnostics.queued == 300)
        #expect(diagnostics.counters.droppedOverflow == 201)
        #expect(meter.api.diagnostics["dropped.overflow"] as? Int == 201)
        let drops = errors.descriptions.filter { $0.contains("over the offline queue's bound (300 pings") }
        #expect(drops.count == 201)               // one per enqueue that overflowed, each naming its seconds
        #expect(drops.last?.contains("1 queued ping(s) over the offline queue's bound (300 pings, 8192 KiB) were dropped unsent, the oldest first; 1 credited seconds are lost") == true)
        meter.api.appDisableApi = true
    }

    /// The default bounds hold a month offline: 5,000 pings, 8 MiB, 31 days (docs/protocol.md §3).
    /// The view ping's request is held, so 5,000 duration pings queue behind it with no retry.
    @Test func theDefaultBoundsHoldFiveThousandPings() async {
        #expect(QueueBounds() == QueueBounds(maxCount: 5_000, maxBytes: 8 << 20, maxAge: 31 * 86_400))
        let transport = GatedTransport()
        let environment = MeterEnvironment(
            clock: VirtualClock(), transport: transport, identifiers: SequentialIdentifierSource(),
            storage: InMemoryStorage(), playheadProcessingDelay: 0, measuresAppRun: false)
        let api = NielsenAppApi(appInfo: MeterHarness.appInfo(), delegate: nil, environment: environment)!
        await api.waitUntilConfigured()
        api.loadMetadata(Fixtures.content())
        api.playheadPosition(0)
        let meter = api.meter!
        await transport.waitUntilHolding()
        for position in Int64(1)...5_001 { api.playheadPosition(position) }
        await meter.waitUntilProcessed()
        #expect(meter.snapshot.pingsBuilt == 5_002)
        #expect(meter.diagnostics.queued == 5_000)
        #expect(meter.diagnostics.counters.droppedOverflow == 2)
        #expect(meter.diagnostics.queuedBytes < 8 << 20)
        transport.release()
        await api.flush()
        #expect(meter.diagnostics.queued == 0)
    }

    /// The byte bound drops the oldest too, and a trace before any ping.
    @Test func overTheByteBoundTheOldestPingsAreDropped() async {
        let meter = MeterHarness(durationPingInterval: 1, queueBounds: QueueBounds(maxBytes: 20_000))
        meter.transport.script(Array(repeating: .failure("offline"), count: 1_000))
        meter.api.play()
        meter.api.loadMetadata(Fixtures.content())
        meter.play(0...100)
        await meter.processed()
        let diagnostics = meter.api.meter!.diagnostics
        #expect(diagnostics.queuedBytes <= 20_000)
        #expect(diagnostics.queued > 0 && diagnostics.queued < 101)
        #expect(diagnostics.counters.droppedOverflow == 101 - diagnostics.queued)
        meter.api.appDisableApi = true
    }

    @Test func nothingIsSentWhileDisabledAndTheQueueWaits() async {
        let meter = MeterHarness()
        meter.api.play()
        meter.api.loadMetadata(Fixtures.content())
        meter.play(0...20)
        meter.api.appDisableApi = true      // closes the segment: its ping is queued, not sent
        await meter.settle()
        #expect(meter.api.meter!.diagnostics.paused)
        #expect(meter.api.meter!.diagnostics.queued + meter.transport.pings.count == 2)
        meter.api.appDisableApi = false
        #expect(await meter.creditedOnTheWire() == ["content/vid345-67483": 20])
    }

    @Test func pingsOlderThanThirtyOneDaysAreDroppedAtOpen() async throws {
        let storage = InMemoryStorage()
        for (name, age) in [("old", 32 * 86_400), ("kept", 30 * 86_400)] {
            let ping = Ping(id: name, kind: .view, assetKind: .content, assetID: "a", creditedSeconds: 0,
                            createdAt: 1_700_000_000 - Double(age), parameters: [PingParameter("prd", "dcr"), PingParameter("pingid", name)])
            storage.save("q-0000000000001-00000\(age / 86_400)-\(name)", PingRecordCodec.encode(PingRecord(ping: ping, recovered: false)))
        }
        let meter = MeterHarness(storage: storage)
        await meter.settle()
        #expect(meter.api.meter!.diagnostics.counters.droppedExpired == 1)
        #expect(meter.transport.pings.map { $0["pingid"] } == ["kept"])
    }

    @Test func aCheckpointIsRecoveredUnlessItsPingWasQueued() async throws {
        func duration(_ id: String, _ seconds: Int64) -> PingRecord {
            PingRecord(ping: Ping(id: id, kind: .duration, assetKind: .content, assetID: "a", creditedSeconds: seconds,
                                  createdAt: 1_700_000_000, parameters: [PingParameter("c27", "cln,\(seconds)"),
                                                                          PingParameter("pingid", id)]),
                       recovered: true)
        }
        let storage = InMemoryStorage()
        // Died mid-segment: only the checkpoint (23 s) exists.
        storage.save("cp-dead-instance-1", PingRecordCodec.encode(duration("seg-1", 23)))
        // Died between queuing a ping and removing its checkpoint: both carry id seg-2.
        var queued = duration("seg-2", 30)
        queued.recovered = false
        storage.save("q-0000000000001-000001-seg-2", PingRecordCodec.encode(queued))
        storage.save("cp-dead-instance-2", PingRecordCodec.encode(duration("seg-2", 25)))
        let meter = MeterHarness(storage: storage)
        await meter.settle()
        let sent = meter.transport.pings
        #expect(sent.map { "\($0["pingid"]!) \($0.credited) recovered=\($0["recovered"] ?? "")" }.sorted()
                == ["seg-1 23 recovered=1", "seg-2 30 recovered="])
        #expect(meter.api.meter!.diagnostics.counters.recovered == 1)
        #expect(storage.keys(prefix: "cp-").isEmpty)
    }

    /// A slot's whole record and the credit form written against it since are read back as one
    /// checkpoint (decisions.md D14); a form written against an earlier whole record, or left
    /// without one, says nothing; every checkpoint key is removed.
    @Test func aCheckpointIsRecoveredWithTheCreditWrittenSinceItsWholeRecord() async throws {
        let storage = InMemoryStorage()
        // Slot 1: whole at 5 s, its form at 40 s.
        let whole = CheckpointCreditTests.checkpoint("seg-1", seconds: 5)
        let wholeBase = try #require(CheckpointCredit.Base(whole))
        let form = try #require(CheckpointCredit.encode(CheckpointCreditTests.later(whole, seconds: 40, by: 35), over: wholeBase))
        storage.save("cp-dead-instance-dcr", PingRecordCodec.encode(whole))
        storage.save("cp-dead-instance-dcr" + InstanceCheckpoints.creditSuffix, form)
        // Slot 2: its whole record was written again (25 s) after a form against the earlier one (20 s).
        let earlier = CheckpointCreditTests.checkpoint("seg-2", seconds: 15)
        let earlierBase = try #require(CheckpointCredit.Base(earlier))
        let stale = try #require(CheckpointCredit.encode(CheckpointCreditTests.later(earlier, seconds: 20, by: 5), over: earlierBase))
        storage.save("cp-dead-instance-dtvr", PingRecordCodec.encode(CheckpointCreditTests.later(earlier, seconds: 25, by: 10)))
        storage.save("cp-dead-instance-dtvr" + InstanceCheckpoints.creditSuffix, stale)
        // A form whose whole record is gone.
        storage.save("cp-dead-instance-static" + InstanceCheckpoints.creditSuffix, form)
        let meter = MeterHarness(storage: storage)
        await meter.settle()
        #expect(meter.transport.pings.map { "\($0["pingid"]!) \($0.credited) recovered=\($0["recovered"] ?? "")" }.sorted()
                == ["seg-1 40 recovered=1", "seg-2 25 recovered=1"])
        #expect(meter.api.meter!.diagnostics.counters.recovered == 2)
        #expect(storage.keys(prefix: "cp-").isEmpty)
    }

    @Test func recordsRoundTripAndEveryKindOfDamageIsDetected() {
        let ping = Ping(id: "p-1", kind: .duration, assetKind: .ad, assetID: "ad-1", creditedSeconds: 15,
                        createdAt: 1_700_000_000, parameters: [PingParameter("c27", "cln,15"), PingParameter("tl", "é,&")])
        let record = PingRecord(ping: ping, recovered: true)
        let data = PingRecordCodec.encode(record)
        #expect(PingRecordCodec.decode(data) == record)
        var flipped = data
        flipped[flipped.count - 5] ^= 0x01
        #expect(PingRecordCodec.decode(flipped) == nil)                 // a flipped bit
        #expect(PingRecordCodec.decode(data.prefix(data.count - 1)) == nil)  // a torn write
        #expect(PingRecordCodec.decode(Data(data.dropFirst())) == nil)      // a damaged header
        #expect(PingRecordCodec.decode(Data()) == nil)
        #expect(CRC32.checksum(Data("123456789".utf8)) == 0xCBF4_3926)   // the standard check value
        // Eight bytes at a time and byte by byte agree, at every length and split.
        let bytes = Data((0..<100).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) })
        for length in 0...bytes.count {
            let whole = CRC32.checksum(bytes.prefix(length))
            var byteByByte = ~UInt32(0)
            for byte in bytes.prefix(length) {
                byteByByte ^= UInt32(byte)
                for _ in 0..<8 { byteByByte = byteByByte & 1 == 1 ? 0xEDB8_8320 ^ (byteByByte >> 1) : byteByByte >> 1 }
            }
            #expect(whole == ~byteByByte)
            let split = length / 3
            let continued = bytes.prefix(length).dropFirst(split).withUnsafeBytes {
                CRC32.checksum($0, continuing: CRC32.checksum(bytes.prefix(split)))
            }
            #expect(continued == whole)
        }
    }

    @Test func everyPrefixOfARecordIsRefusedAndEveryFieldRoundTrips() {
        let ping = Ping(id: "p-2", kind: .view, assetKind: .content, assetID: "vïd", creditedSeconds: -1,
                        createdAt: 1_700_000_000.25, parameters: (0..<70).map { PingParameter("n\($0)", String(repeating: "é", count: $0 * 3)) })
        for record in [PingRecord(ping: ping, recovered: false, body: #"{"a":1}"#, route: "/x"),
                       PingRecord(ping: ping, recovered: true, body: "", route: nil)] {
            let data = PingRecordCodec.encode(record)
            #expect(PingRecordCodec.decode(data) == record)
            for length in 0..<data.count { #expect(PingRecordCodec.decode(data.prefix(length)) == nil) }
        }
    }

    /// A queue file as the release before the larger queue wrote it (`meter play` against a dead
    /// collector, Fixtures/QueueOfRelease39) is read and sent after the upgrade.
    @Test func aQueueFileOfThePreviousReleaseIsSentAfterTheUpgrade() async throws {
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Fixtures/QueueOfRelease39")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("appmeter-q-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.copyItem(at: fixtures, to: folder)
        let meter = MeterHarness(appInfo: MeterHarness.appInfo(extra: ["nol_storageDir": folder.path]))
        await meter.settle()
        #expect(meter.api.meter!.diagnostics.counters.delivered == 1)
        #expect(meter.api.meter!.diagnostics.counters.corruptRecords == 0)
        let ping = try #require(meter.transport.appPings.first)   // the launch ping of that run
        #expect(ping["pingid"] == "01a2137f8ffb7d78a67f2eb2092d6a90")
        #expect(ping["c13"] == "asid,P00000000-0000-4000-8000-00000000D1A7")
        #expect(ping["at"] == "view")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix("q-") }.isEmpty)
    }

    @Test func aRecordQueuedByAnEarlierVersionIsStillRead() throws {
        // Format 1: a magic line, the body's CRC-32 in hex, and the record as JSON.
        let ping = Ping(id: "old-1", kind: .duration, assetKind: .content, assetID: "vid", creditedSeconds: 42,
                        createdAt: 1_700_000_000, parameters: [PingParameter("c27", "cln,42")])
        let record = PingRecord(ping: ping, recovered: false)
        let body = try JSONEncoder().encode(record)
        var legacy = Data("APPMETER-PING-1\n".utf8)
        let hex = String(CRC32.checksum(body), radix: 16)
        legacy.append(contentsOf: (String(repeating: "0", count: 8 - hex.count) + hex + "\n").utf8)
        legacy.append(body)
        #expect(PingRecordCodec.decode(legacy) == record)
        var damaged = legacy
        damaged[damaged.count - 2] ^= 0x20
        #expect(PingRecordCodec.decode(damaged) == nil)
        // What is written now is format 2.
        #expect(PingRecordCodec.encode(record).starts(with: Data("APPMETER-PING-2\n".utf8)))
    }
}

@Suite struct LifecycleDeliveryTests {
    /// Going to the background cuts a retry backoff short: the queue tries at once.
    @Test func goingToTheBackgroundDeliversPromptly() async {
        let meter = MeterHarness()
        meter.transport.script([.failure("offline")])
        meter.api.loadMetadata(Fixtures.content())
        meter.api.playheadPosition(0)            // the view ping; the virtual clock never moves,
        await meter.processed()                  // so its retry can only come from the notification
        guard case .retrying = await meter.api.meter!.deliverySettlement() else {
            Issue.record("the first attempt should have failed and be waiting for a retry")
            return
        }
        #expect(meter.transport.pings.count == 1)
        meter.notifications.post(name: Notification.Name("UIApplicationDidEnterBackgroundNotification"), object: nil)
        await meter.processed()
        await meter.api.flush()
        #expect(meter.transport.pings.count == 2)
        #expect(meter.api.meter!.diagnostics.counters.delivered == 1)
    }
}

/// Holds the first request until released.
final class GatedTransport: PingTransport, Sendable {
    private let state = Locked((gate: CheckedContinuation<Void, Never>?.none, held: false, sent: [String](),
                                holdWaiters: [CheckedContinuation<Void, Never>]()))
    private let config = Data(#"{"enabled": true, "durationPingInterval": 1}"#.utf8)

    func send(_ request: TransportRequest) async -> TransportOutcome {
        if request.url.path.hasSuffix("/cgi-bin/cfg") { return .response(status: 200, retryAfter: nil, body: config) }
        let hold = state.withLock { state -> Bool in
            defer { state.held = true }
            return !state.held
        }
        if hold {
            await withCheckedContinuation { continuation in
                let waiters = state.withLock { state in
                    state.gate = continuation
                    defer { state.holdWaiters = [] }
                    return state.holdWaiters
                }
                waiters.forEach { $0.resume() }
            }
        }
        let ids = DecodedPing.all(in: request).compactMap { $0["pingid"] }
        state.withLock { $0.sent += ids }
        return .response(status: 200, retryAfter: nil, body: Data())
    }

    /// Returns once the first request is being held.
    func waitUntilHolding() async {
        await withCheckedContinuation { continuation in
            let holding = state.withLock { state in
                if state.gate == nil { state.holdWaiters.append(continuation) }
                return state.gate != nil
            }
            if holding { continuation.resume() }
        }
    }
    var sent: [String] { state.withLock { $0.sent } }
    func release() { state.withLock { $0.gate }?.resume() }
}

@Suite struct QueueRaceTests {
    /// Bounds drop the oldest pings while a request for them is in flight: when it succeeds, only
    /// those pings leave the queue, never newer unsent ones.
    @Test func overflowDuringAnInFlightRequestRemovesNothingUnsent() async {
        let transport = GatedTransport()
        let environment = MeterEnvironment(
            clock: VirtualClock(), transport: transport, identifiers: SequentialIdentifierSource(),
            storage: InMemoryStorage(), queueBounds: QueueBounds(maxCount: 3), playheadProcessingDelay: 0,
            measuresAppRun: false)
        let api = NielsenAppApi(appInfo: MeterHarness.appInfo(), delegate: nil, environment: environment)!
        await api.waitUntilConfigured()
        api.loadMetadata(Fixtures.content())
        api.playheadPosition(0)                 // the view ping: its request is held
        let meter = api.meter!
        await transport.waitUntilHolding()
        for position in Int64(1)...6 { api.playheadPosition(position) }   // six one-second duration pings
        await meter.waitUntilProcessed()
        #expect(meter.snapshot.pingsBuilt == 7)
        transport.release()
        await api.flush()
        // The bound kept the 3 newest of the 6 queued behind the held view ping; all 3 were sent.
        #expect(Array(transport.sent.dropFirst()) == ["ping-5", "ping-6", "ping-7"])
        #expect(meter.diagnostics.counters.droppedOverflow == 4)
        #expect(meter.diagnostics.queued == 0)
    }
}
