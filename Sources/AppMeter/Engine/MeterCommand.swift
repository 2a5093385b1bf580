/// A typed API call, handed from the facade to the engine and processed in call order.
enum MeterCommand: Sendable {
    case play(channelName: String?)
    case loadMetadata([String: String])
    case playhead(Int64)
    case stop
    case end
    case setDisabled(Bool)
    case setDebug(Bool)
    /// The user's choice from the opt-out page: true opts out.
    case setOptOut(Bool)
    /// The census config arrived.
    case configReceived(CensusConfig)
    /// An input error the facade found while parsing a call (bad JSON, a non-string value…).
    case inputError(MeterEventCode, String)
    /// Resumes once every earlier command is processed and every ping built so far has left the queue.
    case barrier(CheckedContinuation<Void, Never>)
}

/// A command stamped with the time of the call, taken on the caller's thread.
struct TimedCommand: Sendable {
    let command: MeterCommand
    let time: Double
}
