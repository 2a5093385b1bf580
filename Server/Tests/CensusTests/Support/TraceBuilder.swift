import CensusHTTP
import CensusStore
import MeterTables
import MeterWire

/// Writes call traces for the rule tests, as an SDK instance would record them: calls a second
/// apart unless told otherwise.
struct TraceBuilder {
    private(set) var entries: [CallTraceEntry] = []
    private(set) var time: Double = 1_700_000_000
    private var state = "idle"

    init(debug: String = "DEBUG", config: Bool = true) {
        add(.initialize, ["appid": "P00000000-0000-4000-8000-000000000001", "nol_devDebug": debug])
        if config { add(.config, ["enabled": "true"]) }
    }

    mutating func add(
        _ call: TracedCall, _ args: [String: String] = [:], after seconds: Double = 0, events: [TracedEvent] = [],
        pings: [TracedPing] = []
    ) {
        time += seconds
        switch call {
        case .play, .loadMetadata: state = "processing"
        case .stop, .end: state = "idle"
        default: break
        }
        entries.append(CallTraceEntry(seq: entries.count, time: time, call: call.rawValue, args: args, state: state,
                                      events: events, pings: pings))
    }

    mutating func play() { add(.play, ["channelName": "Test"]) }
    mutating func stop(after seconds: Double = 0) { add(.stop, after: seconds) }
    mutating func end() { add(.end) }
    mutating func release() { add(.release) }

    mutating func content(_ asset: String = "ep1", length: Int64 = 600, events: [TracedEvent] = []) {
        add(.loadMetadata, ["type": "content", "assetid": asset, "length": String(length)], events: events)
    }

    mutating func ad(_ type: String, _ asset: String, length: Int64 = 30) {
        add(.loadMetadata, ["type": type, "assetid": asset, "length": String(length)])
    }

    mutating func staticPage(_ section: String, ping: Bool = true) {
        add(.loadMetadata, ["type": "static", "assetid": section, "section": section],
            pings: ping ? [TracedPing(id: "static-\(section)", query: "prd=dcr&ai=\(section)")] : [])
    }

    /// One playhead per `every` seconds for each position.
    mutating func playheads(_ positions: ClosedRange<Int64>, every seconds: Double = 1) {
        for position in positions { add(.playheadPosition, ["position": String(position)], after: seconds) }
    }

    mutating func playhead(_ position: Int64, after seconds: Double = 1) {
        add(.playheadPosition, ["position": String(position)], after: seconds)
    }

    mutating func tag(offset: Int, length: Int = 249, after seconds: Double = 10) {
        add(.sendID3, ["length": String(length), "cid": "FDCID", "fdOffset": String(offset)], after: seconds)
    }

    /// Entries the census never received (an SDK queue that overflowed gives trace batches up).
    mutating func lose(_ seqs: ClosedRange<Int>) {
        entries.removeAll { seqs.contains($0.seq) }
    }

    mutating func optOut(_ out: Bool) { add(.userOptOut, ["optOut": String(out)]) }

    mutating func ping(_ id: String, query: String) {
        add(.wakeUp, pings: [TracedPing(id: id, query: query)])
    }

    /// The status `rule` gets on this trace.
    func status(_ rule: String) -> RuleStatus? {
        CertificationEvaluator.evaluate(session: "s", appid: "a", sdk: "al.1", trace: entries)
            .results.first { $0.id == rule }?.status
    }

    /// The evidence `rule` gets on this trace.
    func evidence(_ rule: String) -> [String] {
        CertificationEvaluator.evaluate(session: "s", appid: "a", sdk: "al.1", trace: entries)
            .results.first { $0.id == rule }?.evidence.map(\.text) ?? []
    }
}
