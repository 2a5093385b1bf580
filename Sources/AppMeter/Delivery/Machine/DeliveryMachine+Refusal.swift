import Foundation

/// The words of what becomes of a ping the collector refuses or a bound drops (docs/protocol.md
/// §2 "Refused pings", decisions.md D7, D9): the events the machine's transitions append.
extension DeliveryMachine {
    /// The most characters of the collector's reason an event repeats.
    static let maxReasonCharacters = 500

    /// `HTTP <status>: <the collector's reason>` (what an event says the collector answered).
    static func refusal(_ outcome: TransportOutcome) -> String {
        switch outcome {
        case .response(let status, _, let body):
            let reason = shown(String(decoding: body.prefix(4 * maxReasonCharacters), as: UTF8.self))
            return reason.isEmpty ? "HTTP \(status)" : "HTTP \(status): \(reason)"
        case .failure(let reason), .requestNotCreated(let reason), .exchangeFailed(let reason):
            return reason
        }
    }

    /// The collector's reason as an event repeats it: one line, at most ``maxReasonCharacters``.
    static func shown(_ reason: String) -> String {
        let line = String(String.UnicodeScalarView(reason.trimmingCharacters(in: .whitespacesAndNewlines).unicodeScalars.map {
            $0.properties.generalCategory == .control ? " " : $0
        }))
        return line.count > maxReasonCharacters ? line.prefix(maxReasonCharacters) + "…" : line
    }

    /// The event for a refused ping sent once more in its plain form.
    static func resentPlain(_ record: PingRecord, refusal: String) -> String {
        "the collector refused \(describe([record])), \(refusal). It is sent once more without its "
            + "descriptive fields (title, program, segments, names), its credit unchanged"
    }

    /// The event for pings refused for good.
    static func refused(_ records: [PingRecord], refusal: String) -> String {
        "the collector refused \(describe(records)), \(refusal). Not sent again (it would be refused again); \(lost(records))"
    }

    /// `ping <id> (content vid1, 60 s)`, or `3 pings (120 s)`.
    static func describe(_ records: [PingRecord]) -> String {
        guard records.count == 1, let ping = records.first?.ping else {
            return "\(records.count) pings (\(records.reduce(0) { $0 + $1.ping.creditedSeconds }) s)"
        }
        return "ping \(ping.id) (\(ping.assetKind.rawValue) \(ping.assetID), \(ping.creditedSeconds) s)"
    }

    /// What the app loses with `records`.
    static func lost(_ records: [PingRecord]) -> String {
        let seconds = records.reduce(0) { $0 + $1.ping.creditedSeconds }
        return seconds == 0 ? "it credited no seconds (a view ping)"
            : "\(seconds) credited seconds are lost (counted in dropped.rejectedSeconds)"
    }

    /// One event per instance for the pings a bound dropped (an earlier process's have no one to tell).
    static func reportDropped(_ dropped: [Entry], _ why: @autoclosure () -> String, into actions: inout [DeliveryAction]) {
        // The common case: this runs at every enqueue, and `why` is built only when something was dropped.
        guard !dropped.isEmpty else { return }
        let why = why()
        for (origin, entries) in Dictionary(grouping: dropped.filter { $0.origin != nil }, by: { $0.origin! })
            .sorted(by: { $0.key.uuidString < $1.key.uuidString }) {
            let records = entries.map(\.record)
            let seconds = records.reduce(0) { $0 + $1.ping.creditedSeconds }
            actions.append(.report(.failedSendPing, "\(records.count) queued ping(s) \(why) were dropped unsent, the oldest first; "
                                   + (seconds == 0 ? "they credited no seconds" : "\(seconds) credited seconds are lost"), to: [origin]))
        }
    }
}
