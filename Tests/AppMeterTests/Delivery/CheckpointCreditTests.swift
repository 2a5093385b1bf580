import Foundation
import Testing
@testable import AppMeter
import MeterWire

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

    // MARK: The machine's choice

    /// The actions the machine decides for a sequence of checkpoints in one slot, described:
    /// `whole <credit>`, `credit`, `remove`.
    @Test func theMachineWritesTheFormOnlyAgainstAWholeRecordItWrote() throws {
        let app = UUID()
        var machine = DeliveryMachine(policy: RetryPolicy(), bounds: QueueBounds())
        machine.attach(app)
        func step(_ record: PingRecord?, creditOnly: Bool) -> String {
            switch machine.checkpoint(app, slot: .dcr, record: record, creditOnly: creditOnly) {
            case .writeCheckpoint(let keys, let record?, _, _):
                #expect(keys.whole.hasSuffix("-dcr") && keys.credit == keys.whole + InstanceCheckpoints.creditSuffix)
                return "whole \(record.ping.creditedSeconds)"
            case .writeCheckpoint(_, nil, _, _): return "remove"
            case .writeCheckpointCredit(let key, let form, _, _):
                #expect(key.hasSuffix("-dcr" + InstanceCheckpoints.creditSuffix) && form.count == CheckpointCredit.size)
                return "credit"
            default: return "other"
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
        _ = machine.checkpointFailed(app, slot: .dcr, StorageFailure(key: "k", reason: "disk full"))
        #expect(step(Self.later(first, seconds: 30, by: 25), creditOnly: true) == "whole 30")
        #expect(step(Self.later(first, seconds: 35, by: 30), creditOnly: true) == "credit")
        // Another ping claiming to be credit only cannot be said against p1's record.
        #expect(step(Self.checkpoint("p2", seconds: 5), creditOnly: true) == "whole 5")
        #expect(step(nil, creditOnly: false) == "remove")
        // After a removal nothing is held: whole again.
        #expect(step(Self.later(first, seconds: 40, by: 35), creditOnly: true) == "whole 40")
        // Slots are independent.
        if case .writeCheckpoint(_, _?, _, _) = machine.checkpoint(app, slot: .dtvr, record: first, creditOnly: true) {} else {
            Issue.record("the DTVR slot holds nothing yet: its first checkpoint must be whole")
        }
    }
}
