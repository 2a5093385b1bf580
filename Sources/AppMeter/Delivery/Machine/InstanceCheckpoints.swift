import Foundation

/// One instance's credit checkpoints in storage: each slot's keys, built once when it attaches (a
/// checkpoint is written every five seconds of playback, and joining a key each time cost an
/// allocation), and the whole record each slot holds, against which a checkpoint that changed only
/// its credit is written in its short form (decisions.md D14).
package struct InstanceCheckpoints: Sendable {
    /// Where one slot's checkpoint is stored: its whole record, and its short credit form.
    struct Keys: Sendable, Equatable {
        /// `cp-<instance>-dcr`: the whole record (``PingRecordCodec``).
        let whole: String
        /// `cp-<instance>-dcr.credit`: the credit and creation time written since (``CheckpointCredit``).
        let credit: String
    }

    /// What follows a whole record's key to name its credit form.
    package static let creditSuffix = ".credit"

    /// The instance whose checkpoints these are.
    let instance: UUID
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

    init(_ instance: UUID) {
        self.instance = instance
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
