import Foundation
import MeterWire

/// What the delivery queue's owner does for ``DeliveryMachine``: the storage writes and the
/// events it decided, in order. A write that fails is handed back to the machine
/// (``DeliveryMachine/saveFailed(serial:_:)``, ``DeliveryMachine/deleteFailed(origin:_:)``,
/// ``DeliveryMachine/rewriteFailed()``), whose
/// follow-up actions run next.
enum DeliveryAction: Equatable {
    /// Persist a queued ping under `key` (the entry `serial`).
    case save(key: String, record: PingRecord, serial: Int)
    /// Replace a stored ping by its plain form; a failure is only counted (the stored copy is
    /// refused once more after a kill, then resent without its description again).
    case rewrite(key: String, record: PingRecord)
    /// Remove a stored ping that `origin` built (nil: an earlier process's).
    case delete(key: String, origin: UUID?)
    /// Tell the instances that built the pings what became of them, through their runners.
    case report(MeterEventCode, String, to: [UUID])
}

/// Where the upload stands: the machine's one answer to "may a request go now?".
enum UploadState: Equatable {
    /// No upload loop runs.
    case idle
    /// A request is in flight or about to be; with `aloneNext`, the next goes alone (a refused
    /// ping replaced by its plain form, so that the census's answer is about it only).
    case sending(aloneNext: Bool)
    /// The last attempt failed: the next is due at this instant (or sooner, when
    /// ``DeliveryMachine/mayCutBackoffShort``).
    case backingOff(until: MeterInstant)
}

/// One request the machine decided to make, and the queued pings it carries.
struct DeliveryAttempt {
    /// The request.
    let request: TransportRequest
    /// The entries sent, as they were when sent (bounds may drop some while it is in flight).
    let sent: [DeliveryMachine.Entry]
}

/// What the owner does after an attempt's outcome.
enum AfterAttempt: Equatable {
    /// Ask for the next request at once.
    case next
    /// Wait until this instant (or until ``DeliveryMachine/mayCutBackoffShort``), then ask again.
    case backOff(until: MeterInstant)
}
