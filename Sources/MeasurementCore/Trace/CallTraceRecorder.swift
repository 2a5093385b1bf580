package import MeterContract

/// Writes an instance's call trace (docs/certification.md): one entry per command with what the
/// core did with it, handed out in batches for the durable queue. A value owned by the runner,
/// with no I/O: tests feed it commands and effects and compare batches.
///
/// Bounded: at most ``limit`` entries per instance (an hour of playheads is 3,600), then one
/// `truncated` entry and nothing more; a batch goes out at ``batchSize`` entries, on any call but
/// a playhead, and when its oldest entry is ``maxDelay`` seconds old, so a dashboard sees calls
/// within seconds while playheads cost one queued record per ``batchSize``.
package struct CallTraceRecorder: Sendable {
    package static let limit = 20_000
    package static let batchSize = 50
    package static let maxDelay = 5.0

    private let session: String
    private let appid: String
    private let sdk: String
    private var next = 0
    private var pending: [CallTraceEntry] = []
    private var truncated = false

    /// Starts a trace with the `init` entry: appInfo as given (it holds no personal identifier).
    package init(session: String, appID: String, settings: [String: String], sdkVersion: String, flavor: String,
                 at time: MeterInstant) {
        self.session = session
        appid = appID
        sdk = sdkVersion
        var args = settings.mapValues { String($0.prefix(256)) }
        args[.sdkFlavor] = flavor
        append(CallTraceEntry(seq: 0, time: time.secondsSince1970, call: TracedCall.initialize.rawValue, args: args,
                              state: LifecycleState.idle.rawValue))
    }

    /// Records `command`, handled at `time` with `effects`, leaving the core in `state`; returns a
    /// batch when one is due. Wake-ups and viewability samples are recorded only when they built
    /// pings or raised events: they are the SDK's own doing, not calls.
    package mutating func record(
        _ command: MeterCommand, at time: MeterInstant, effects: ArraySlice<MeterEffect>, state: LifecycleState
    ) -> CallTraceBatch? {
        // Past the limit only the truncated entry may still be pending.
        guard !truncated else { return flush() }
        var events: [TracedEvent] = []
        var pings: [TracedPing] = []
        for effect in effects {
            switch effect {
            case .enqueue(let record, _):
                pings.append(TracedPing(id: record.ping.id, query: Self.query(of: record.ping)))
            case .report(let code, let text):
                events.append(TracedEvent(code: code.rawValue, isEvent: code.isEvent, text: text))
            default:
                break
            }
        }
        if events.isEmpty && pings.isEmpty {
            if case .wakeUp = command { return due(at: time, lazy: true) }
            if case .viewability = command { return due(at: time, lazy: true) }
        }
        let (call, args) = command.traced
        append(CallTraceEntry(seq: next, time: time.secondsSince1970, call: call.rawValue, args: args,
                              state: state.rawValue, events: events, pings: pings))
        if case .release = command { return flush() }
        return due(at: time, lazy: call == .playheadPosition || call == .wakeUp)
    }

    /// Whatever is pending, as a batch.
    package mutating func flush() -> CallTraceBatch? {
        guard !pending.isEmpty else { return nil }
        defer { pending.removeAll(keepingCapacity: true) }
        return CallTraceBatch(session: session, appid: appid, sdk: sdk, entries: pending)
    }

    /// The ping's query as sent, but for the send time and cache buster the encoder adds then.
    private static func query(of ping: Ping) -> String {
        ping.parameters.map { "\($0.name)=\(PingEncoder.encode($0.value))" }.joined(separator: "&")
    }

    private mutating func due(at time: MeterInstant, lazy: Bool) -> CallTraceBatch? {
        guard let oldest = pending.first else { return nil }
        if !lazy || pending.count >= Self.batchSize || time.secondsSince1970 - oldest.time >= Self.maxDelay {
            return flush()
        }
        return nil
    }

    private mutating func append(_ entry: CallTraceEntry) {
        var entry = entry
        if next == Self.limit - 1 {
            truncated = true
            entry = CallTraceEntry(seq: next, time: entry.time, call: TracedCall.truncated.rawValue,
                                   args: TracedArgument.arguments([.limit: String(Self.limit)]), state: entry.state)
        }
        entry.seq = next
        next += 1
        pending.append(entry)
    }
}

extension PingRecord {
    /// A call trace batch as a queued record, POSTed to ``WireRoute/trace``.
    package static func trace(_ batch: CallTraceBatch) -> PingRecord {
        let id = "trace-\(batch.session)-\(batch.entries.first?.seq ?? 0)"
        let ping = Ping(id: id, kind: .duration, assetKind: .app, assetID: "", creditedSeconds: 0,
                        createdAt: batch.entries.first?.time ?? 0, parameters: [])
        return PingRecord(ping: ping, recovered: false, body: batch.jsonBody,
                          route: WireRoute.trace)
    }
}
