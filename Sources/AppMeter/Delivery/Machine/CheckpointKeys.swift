import Foundation

/// An instance's storage key for each checkpoint slot (`cp-<instance>-dcr`, …), built once when
/// it attaches: a checkpoint is written every few seconds of playback, and joining the key each
/// time cost an allocation each.
struct CheckpointKeys: Sendable {
    private let dcr: String
    private let dtvr: String
    private let staticPage: String
    private let appRun: String

    init(_ instance: UUID) {
        let prefix = DeliveryMachine.checkpointPrefix + instance.uuidString + "-"
        dcr = prefix + CheckpointSlot.dcr.rawValue
        dtvr = prefix + CheckpointSlot.dtvr.rawValue
        staticPage = prefix + CheckpointSlot.staticPage.rawValue
        appRun = prefix + CheckpointSlot.appRun.rawValue
    }

    subscript(slot: CheckpointSlot) -> String {
        switch slot {
        case .dcr: dcr
        case .dtvr: dtvr
        case .staticPage: staticPage
        case .appRun: appRun
        }
    }
}
