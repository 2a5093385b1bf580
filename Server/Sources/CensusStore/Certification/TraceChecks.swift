import MeterWire

/// A family of checks over one walked trace (``PlaybackChecks``, ``ProductChecks``): the walk's
/// parts under the names the checks read them by, written once.
protocol TraceChecks {
    /// The session's trace, walked.
    var walk: TraceWalk { get }
}

extension TraceChecks {
    typealias Step = TraceWalk.Step
    typealias Loaded = TraceWalk.Loaded
    var entries: [CallTraceEntry] { walk.entries }
    var steps: [TraceWalk.Step] { walk.steps }
    var playheads: [TraceWalk.Step] { walk.playheads }
    var pings: [(seq: Int, ping: TracedPing)] { walk.pings }
    var ended: Bool { walk.ended }
    static func describe(_ entry: CallTraceEntry) -> String { TraceWalk.describe(entry) }
}
