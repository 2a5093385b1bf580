/// The credit of one open segment that is not in a ping yet, and the id its checkpoint and its
/// next duration ping share (so the census can never credit both). Every product part keeps one
/// per open segment; ``Emission/settle(_:of:_:_:at:durationPing:)`` says what is due after each
/// credited observation.
package struct PendingCredit: Sendable, Equatable {
    /// What is due after credit was added.
    package enum Due: Equatable {
        case nothing
        /// The seconds reached the duration-ping interval.
        case durationPing
        /// Enough seconds since the last checkpoint: store one.
        case checkpoint
    }

    /// The last checkpoint's ping and the context revision it was built at: the next checkpoint
    /// of the same credit changes only its seconds and time (a tenth of an hour of viewing's CPU
    /// went to rebuilding the same ping every five seconds).
    package struct Checkpoint: Sendable, Equatable {
        package var revision: Int
        package var ping: Ping

        /// This checkpoint's ping changed in place to credit `seconds` at `time`, when it is the
        /// ping `id` built at `revision` (only its credit and time can differ); nil otherwise.
        /// Not generic, and kept out of line: every part's settlement calls it, and the browser's
        /// engine is sized by its code.
        @inline(never)
        package consuming func changed(id: String, seconds: Int64, revision: Int, at time: MeterInstant) -> Ping? {
            guard self.revision == revision, ping.id == id, ping.setCredit(seconds, createdAt: time) else { return nil }
            return ping
        }
    }

    /// Credited seconds not yet in a ping.
    package private(set) var seconds: Int64 = 0
    /// Of those, the seconds already in the durable checkpoint.
    package private(set) var checkpointed: Int64 = 0
    /// The id the next duration ping will carry, allocated with the first checkpoint.
    package private(set) var nextPingID: String?
    /// The checkpoint stored last for these seconds, if any.
    package var lastCheckpoint: Checkpoint?

    /// Nothing pending.
    package init() {}

    /// Adds `credited` seconds and says what is due.
    package mutating func add(_ credited: Int64, durationPingInterval: Int64, checkpointInterval: Int64) -> Due {
        guard credited > 0 else { return .nothing }
        seconds += credited
        if seconds >= durationPingInterval { return .durationPing }
        if seconds - checkpointed >= checkpointInterval { return .checkpoint }
        return .nothing
    }

    /// The seconds and id for a duration ping (the checkpoint's id when there is one), and with
    /// `reusing`, the ping itself when it is the last checkpoint's changed in place
    /// (``Checkpoint/changed(id:seconds:revision:at:)``; nil: it must be built); resets.
    package mutating func takeForPing(
        _ newID: () -> String, reusing: Bool, revision: Int, at time: MeterInstant
    ) -> (seconds: Int64, id: String, ping: Ping?) {
        defer { self = PendingCredit() }
        let id = nextPingID ?? newID()
        return (seconds, id, reusing ? lastCheckpoint.take()?.changed(id: id, seconds: seconds, revision: revision, at: time) : nil)
    }

    /// The id for a checkpoint of the seconds so far, which the next duration ping will reuse.
    package mutating func idForCheckpoint(_ newID: () -> String) -> String {
        let id = nextPingID ?? newID()
        nextPingID = id
        checkpointed = seconds
        return id
    }
}
