import Foundation
import Testing
@testable import AppMeter
import MeterWire
import NielsenAppApi

/// A checkpoint that changed only its credit and time is stored as a 13-byte form written against
/// the slot's whole record (decisions.md D14): what a relaunch reads back must be the checkpoint
/// itself, and a form that does not belong to the whole record beside it must say nothing.
struct CheckpointCreditTests {
    static let created = 1_700_000_000.25

    /// A checkpoint's record as the core builds it: `c27` and `c61` among its parameters.
    static func checkpoint(_ id: String, seconds: Int64, at time: Double = created) -> PingRecord {
        let ping = Ping(id: id, kind: .duration, assetKind: .content, assetID: "a", creditedSeconds: seconds, createdAt: time,
                        parameters: [PingParameter(PingField.pingID.name, id),
                                     PingParameter(PingField.creditedSeconds.name, PingField.creditedSeconds.wireValue(String(seconds))),
                                     PingParameter(PingField.createdAt.name, PingField.createdAt.wireValue(Int64(exactly: time.rounded(.down)).map(String.init) ?? "0")),
                                     PingParameter(PingField.title.name, "T")])
        return PingRecord(ping: ping, recovered: true)
    }

    /// `record` changed as the core changes a reused checkpoint.
    static func later(_ record: PingRecord, seconds: Int64, by elapsed: Double) -> PingRecord {
        var changed = record
        _ = changed.ping.setCredit(seconds, createdAt: MeterInstant(secondsSince1970: record.ping.createdAt + elapsed))
        return changed
    }

    @Test func aFormReadBackOverItsWholeRecordIsTheCheckpointToTheSecond() throws {
        let whole = Self.checkpoint("p1", seconds: 5)
        let base = try #require(CheckpointCredit.Base(whole))
        let current = Self.later(whole, seconds: 50, by: 45.5)
        let form = try #require(CheckpointCredit.encode(current, over: base))
        #expect(form.count == 13)
        let read = try #require(CheckpointCredit.apply(form, to: whole))
        #expect(read.ping.creditedSeconds == 50)
        #expect(read.ping[PingField.creditedSeconds.name] == current.ping[PingField.creditedSeconds.name])
        #expect(read.ping[PingField.createdAt.name] == current.ping[PingField.createdAt.name])
        // The time's fraction is not kept: c61, all the census reads, is whole seconds.
        #expect(read.ping.createdAt == (current.ping.createdAt).rounded(.down))
        var expected = current
        _ = expected.ping.setCredit(50, createdAt: MeterInstant(secondsSince1970: current.ping.createdAt.rounded(.down)))
        #expect(read == expected)
    }

    @Test func aFormWrittenAgainstAnotherWholeRecordSaysNothing() throws {
        let first = Self.checkpoint("p1", seconds: 5)
        let base = try #require(CheckpointCredit.Base(first))
        let form = try #require(CheckpointCredit.encode(Self.later(first, seconds: 20, by: 15), over: base))
        // The slot's whole record written again since (same ping, more credit), or another ping's.
        for other in [Self.later(first, seconds: 25, by: 20), Self.checkpoint("p2", seconds: 5), Self.later(first, seconds: 5, by: 1)] {
            #expect(CheckpointCredit.apply(form, to: other) == nil)
        }
    }

    @Test func whatTheFormCannotSayIsWrittenWhole() throws {
        let whole = Self.checkpoint("p1", seconds: 5)
        let base = try #require(CheckpointCredit.Base(whole))
        #expect(CheckpointCredit.encode(Self.checkpoint("p2", seconds: 10), over: base) == nil)
        #expect(CheckpointCredit.encode(Self.later(whole, seconds: Int64(UInt32.max) + 1, by: 5), over: base) == nil)
        #expect(CheckpointCredit.encode(Self.later(whole, seconds: -1, by: 5), over: base) == nil)
        #expect(CheckpointCredit.encode(Self.later(whole, seconds: 10, by: -2), over: base) == nil)
        #expect(CheckpointCredit.encode(Self.later(whole, seconds: 10, by: Double(UInt32.max) + 2), over: base) == nil)
        #expect(CheckpointCredit.encode(Self.later(whole, seconds: Int64(UInt32.max), by: Double(UInt32.max)), over: base) != nil)
    }

    @Test func everyDamagedFormAndEveryImpossibleRecordIsRefusedWithoutATrap() throws {
        let whole = Self.checkpoint("p1", seconds: 5)
        let base = try #require(CheckpointCredit.Base(whole))
        let form = try #require(CheckpointCredit.encode(Self.later(whole, seconds: 30, by: 25), over: base))
        for index in 0..<form.count {
            for bit in 0..<8 {
                var damaged = form
                damaged[damaged.startIndex + index] ^= UInt8(1 << bit)
                #expect(CheckpointCredit.apply(damaged, to: whole) == nil, "byte \(index) bit \(bit)")
            }
        }
        #expect(CheckpointCredit.apply(form.prefix(12), to: whole) == nil)
        #expect(CheckpointCredit.apply(form + Data([0]), to: whole) == nil)
        #expect(CheckpointCredit.apply(Data(), to: whole) == nil)
        // Records read from storage may hold any time: none may trap.
        for time in [Double.nan, .infinity, -.infinity, 1e300, -1e300, 9.3e18, Double(Int64.max)] {
            let impossible = Self.checkpoint("p1", seconds: 5, at: time)
            #expect(CheckpointCredit.Base(impossible) == nil)
            #expect(CheckpointCredit.apply(form, to: impossible) == nil)
        }
        // A whole record near the end of time: the form's later second would not fit.
        let late = Self.checkpoint("p1", seconds: 5, at: 9.2e18)
        let lateBase = try #require(CheckpointCredit.Base(late))
        let lateForm = CheckpointCredit.encode(Self.later(late, seconds: 9, by: 5000), over: lateBase)
        if let lateForm { _ = CheckpointCredit.apply(lateForm, to: late) }
    }

    // MARK: The runner's choice

    /// What an instance's runner writes for a sequence of checkpoints in one slot, described:
    /// `whole <credit>`, `credit`, `remove`.
    @Test func theFormIsWrittenOnlyAgainstAWholeRecordThisRunnerWrote() throws {
        var slots = InstanceCheckpoints(UUID())
        func step(_ record: PingRecord?, creditOnly: Bool, slot: CheckpointSlot = .dcr) -> String {
            switch slots.plan(record, slot: slot, creditOnly: creditOnly) {
            case .whole(let key, let record):
                #expect(key.hasSuffix("-" + slot.rawValue) && key == slots[slot].whole)
                return "whole \(record.ping.creditedSeconds)"
            case .remove(let keys):
                #expect(keys.credit == keys.whole + InstanceCheckpoints.creditSuffix)
                return "remove"
            case .credit(let key, let form):
                #expect(key == slots[slot].credit && form.count == CheckpointCredit.size)
                return "credit"
            }
        }
        let first = CheckpointCreditTests.checkpoint("p1", seconds: 5)
        #expect(step(first, creditOnly: false) == "whole 5")
        #expect(step(Self.later(first, seconds: 10, by: 5), creditOnly: true) == "credit")
        #expect(step(Self.later(first, seconds: 15, by: 10), creditOnly: true) == "credit")
        // The core did not say "credit only" (the context changed): whole.
        #expect(step(Self.later(first, seconds: 20, by: 15), creditOnly: false) == "whole 20")
        #expect(step(Self.later(first, seconds: 25, by: 20), creditOnly: true) == "credit")
        // A failed write: what the slot holds is unknown, so the next one is whole.
        slots.writeFailed(.dcr)
        #expect(step(Self.later(first, seconds: 30, by: 25), creditOnly: true) == "whole 30")
        #expect(step(Self.later(first, seconds: 35, by: 30), creditOnly: true) == "credit")
        // Another ping claiming to be credit only cannot be said against p1's record.
        #expect(step(Self.checkpoint("p2", seconds: 5), creditOnly: true) == "whole 5")
        #expect(step(nil, creditOnly: false) == "remove")
        // After a removal nothing is held: whole again.
        #expect(step(Self.later(first, seconds: 40, by: 35), creditOnly: true) == "whole 40")
        // Slots are independent: the DTVR slot holds nothing yet.
        #expect(step(first, creditOnly: true, slot: .dtvr) == "whole 5")
        #expect(step(Self.later(first, seconds: 45, by: 40), creditOnly: true) == "credit")
    }

    /// A checkpoint that cannot be written is counted by the queue and told to the instance, and
    /// the next one is written whole: a relaunch then recovers the credit of the last one written.
    @Test func aFailedCheckpointIsToldAndTheNextIsWrittenWhole() async throws {
        let storage = FailingCheckpointStorage()
        let events = ErrorCollector()
        let clock = VirtualClock()
        let transport = RecordingTransport()
        transport.scriptConfig([], then: RecordingTransport.config())
        let environment = MeterEnvironment(
            clock: clock, transport: transport, identifiers: SequentialIdentifierSource(), storage: storage,
            identityProvider: MeterHarness.device, measuresAppRun: false)
        let api = try #require(NielsenAppApi(appInfo: MeterHarness.appInfo(), delegate: events, environment: environment))
        api.loadMetadata(Fixtures.content())
        func play(_ positions: ClosedRange<Int64>) async {
            for position in positions {
                clock.advance(by: 1)
                api.playheadPosition(position)
            }
            await api.meter!.flush(advancing: clock)
        }
        await play(0...7)     // checkpoints at 5 s: whole
        storage.failing = true
        await play(8...12)    // at 10 s: its short form fails
        storage.failing = false
        await play(13...17)   // at 15 s: whole again
        #expect(events.codes.contains(MeterEventCode.fileWriteFailure.rawValue))
        #expect(events.descriptions.contains { $0.contains("a credit checkpoint") })
        #expect(api.meter!.diagnostics.counters.storageFailures == 1)
        let key = try #require(storage.keys(prefix: "cp-").first { !$0.hasSuffix(InstanceCheckpoints.creditSuffix) })
        let whole = try #require(try storage.load(key).flatMap(PingRecordCodec.decode))
        #expect(whole.ping.creditedSeconds == 15)
    }
}

/// In-memory storage whose checkpoint writes fail while `failing`.
final class FailingCheckpointStorage: MeterStorage, @unchecked Sendable {
    private let inner = InMemoryStorage()
    private let lock = NSLock()
    private var failingValue = false
    var failing: Bool {
        get { lock.withLock { failingValue } }
        set { lock.withLock { failingValue = newValue } }
    }

    var identity: String { inner.identity }
    func load(_ key: String) throws -> Data? { inner.load(key) }
    func save(_ key: String, _ value: Data?) throws {
        if failing, key.hasPrefix("cp-") { throw StorageFailure(key: key, reason: "disk full") }
        inner.save(key, value)
    }
    func keys(prefix: String) throws -> [String] { inner.keys(prefix: prefix) }
}
