package import MeterWire

/// A session's trace read for the rules: the calls an integration made (the SDK's own wake-ups,
/// reports and config left out) with the metadata in force at each.
package struct TraceWalk {
    /// What `loadMetadata` put in force.
    struct Loaded: Equatable {
        var seq: Int
        var type: String
        var assetid: String
        var length: Int64?

        var isAd: Bool { ["preroll", "midroll", "postroll", "ad"].contains(type) }
        var isContent: Bool { type == "content" }
        /// VOD content: a length, under a day (86,400 is a 24×7 stream's).
        var isVOD: Bool { isContent && (length ?? 0) > 0 && (length ?? 0) < 86_400 }
    }

    /// A call with the metadata in force when it was made.
    struct Step {
        var entry: CallTraceEntry
        var loaded: Loaded?

        var seq: Int { entry.seq }
        var time: Double { entry.time }
        var position: Int64? { entry.is(.playheadPosition) ? Int64(entry[.position]) : nil }
        func `is`(_ call: TracedCall) -> Bool { entry.is(call) }
    }

    let entries: [CallTraceEntry]
    let steps: [Step]

    private static let sdkOwn: Set<String> = [
        TracedCall.wakeUp, .report, .config, .appLaunch, .truncated, .release,
    ].reduce(into: []) { $0.insert($1.rawValue) }

    init(_ entries: [CallTraceEntry]) {
        self.entries = entries
        var loaded: Loaded?
        var steps: [Step] = []
        for entry in entries where !Self.sdkOwn.contains(entry.call) {
            if entry.is(.loadMetadata) {
                loaded = Loaded(seq: entry.seq, type: entry[.type], assetid: entry[.assetid],
                                length: Int64(entry[.length]))
            }
            steps.append(Step(entry: entry, loaded: loaded))
        }
        self.steps = steps
    }

    /// Whether the session was released (the app let the SDK go): what is still open then is final.
    var ended: Bool { entries.last?.is(.release) ?? false }

    /// The playheads, in order.
    var playheads: [Step] { steps.filter { $0.is(.playheadPosition) } }

    /// Every ping the trace says was built, with the entry that built it.
    var pings: [(seq: Int, ping: TracedPing)] {
        entries.flatMap { entry in entry.pings.map { (entry.seq, $0) } }
    }

    /// "#12 playheadPosition(30)": a step as evidence.
    package static func describe(_ entry: CallTraceEntry) -> String {
        let args: String
        switch TracedCall(rawValue: entry.call) {
        case .playheadPosition: args = entry[.position]
        case .loadMetadata: args = "\(entry[.type]) \(entry[.assetid])"
        case .sendID3: args = "\(entry[.length]) chars, cid \(entry[.cid])"
        default: args = entry.args.keys.sorted().prefix(3).map { "\($0)=\(entry.args[$0] ?? "")" }.joined(separator: " ")
        }
        return "#\(entry.seq) \(entry.call)(\(args))"
    }
}
