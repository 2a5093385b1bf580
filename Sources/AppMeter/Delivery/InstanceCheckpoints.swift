package import Foundation

/// One instance's credit checkpoints in storage, kept by its runner, which writes them on its own
/// executor (a checkpoint every five seconds of playback is no hop to the delivery queue; the
/// queue only reads what a previous process left): each slot's keys, built once (joining a key
/// each time cost an allocation), and the whole record each slot holds, against which a
/// checkpoint that changed only its credit is written in its short form (decisions.md D14).
package struct InstanceCheckpoints: Sendable {
    /// What to write for a checkpoint.
    package enum Write: Sendable, Equatable {
        /// The whole record under `key` (``PingRecordCodec``).
        case whole(key: String, record: PingRecord)
        /// The short credit form under `key` (``CheckpointCredit``).
        case credit(key: String, form: Data)
        /// No checkpoint: its credit form, then its whole record, removed.
        case remove(Keys)
    }

    /// Where one slot's checkpoint is stored: its whole record, and its short credit form.
    package struct Keys: Sendable, Equatable {
        /// `cp-<instance>-dcr`: the whole record (``PingRecordCodec``).
        package let whole: String
        /// `cp-<instance>-dcr.credit`: the credit and creation time written since (``CheckpointCredit``).
        package let credit: String
    }

    /// What follows a whole record's key to name its credit form.
    package static let creditSuffix = ".credit"

    private let dcr: Keys
    private let dtvr: Keys
    private let staticPage: Keys
    private let appRun: Keys
    /// The whole record each slot holds, as far as this process wrote it (nil: unknown, or none):
    /// stored properties, not a dictionary, so that setting one allocates nothing.
    private var dcrBase: CheckpointCredit.Base?
    private var dtvrBase: CheckpointCredit.Base?
    private var staticPageBase: CheckpointCredit.Base?
    private var appRunBase: CheckpointCredit.Base?

    package init(_ instance: UUID) {
        let prefix = DeliveryMachine.checkpointPrefix + instance.uuidString + "-"
        func keys(_ slot: CheckpointSlot) -> Keys {
            Keys(whole: prefix + slot.rawValue, credit: prefix + slot.rawValue + Self.creditSuffix)
        }
        dcr = keys(.dcr)
        dtvr = keys(.dtvr)
        staticPage = keys(.staticPage)
        appRun = keys(.appRun)
    }

    subscript(slot: CheckpointSlot) -> Keys {
        switch slot {
        case .dcr: dcr
        case .dtvr: dtvr
        case .staticPage: staticPage
        case .appRun: appRun
        }
    }

    /// The checkpoint in `slot` is now `record` (nil: none): what to write. With `creditOnly` (the
    /// core's word that only the credit and creation time changed since the slot's last
    /// checkpoint), the short form against the slot's whole record, when this runner wrote that
    /// record and the form can say the change; whole otherwise.
    package mutating func plan(_ record: PingRecord?, slot: CheckpointSlot, creditOnly: Bool) -> Write {
        if let record, creditOnly, let base = base(slot), let form = CheckpointCredit.encode(record, over: base) {
            return .credit(key: self[slot].credit, form: form)
        }
        setBase(record.flatMap(CheckpointCredit.Base.init), for: slot)
        guard let record else { return .remove(self[slot]) }
        return .whole(key: self[slot].whole, record: record)
    }

    /// A write in `slot` failed: what the slot holds is not known, so its next checkpoint is whole.
    package mutating func writeFailed(_ slot: CheckpointSlot) {
        setBase(nil, for: slot)
    }

    /// The whole record `slot` holds, if this process wrote it and nothing failed since.
    func base(_ slot: CheckpointSlot) -> CheckpointCredit.Base? {
        switch slot {
        case .dcr: dcrBase
        case .dtvr: dtvrBase
        case .staticPage: staticPageBase
        case .appRun: appRunBase
        }
    }

    /// `slot` now holds this whole record (nil: none, or unknown after a failed write).
    mutating func setBase(_ base: CheckpointCredit.Base?, for slot: CheckpointSlot) {
        switch slot {
        case .dcr: dcrBase = base
        case .dtvr: dtvrBase = base
        case .staticPage: staticPageBase = base
        case .appRun: appRunBase = base
        }
    }
}
