import Foundation

/// What becomes of a ping the collector refuses (docs/protocol.md §2 "Refused pings"): never
/// retried as it was, sent once more without its descriptive fields when the refusal can be
/// about them, and otherwise dropped with its seconds counted and told to the instance that
/// built it, with the collector's reason.
extension DeliveryMachine {
    /// The most characters of the collector's reason an event repeats.
    static let maxReasonCharacters = 500

    /// Replaces `entry`'s ping, in the queue and in storage, by the same ping without its
    /// descriptive fields, so that it goes next; false when it has none to empty (or a body, which
    /// carries what was refused).
    mutating func resendWithoutDescription(_ entry: Entry, refusal: String, into actions: inout [DeliveryAction]) -> Bool {
        guard entry.record.body == nil, let plain = entry.record.ping.withoutDescription() else { return false }
        guard let index = entries.firstIndex(where: { $0.serial == entry.serial }) else { return true }
        var record = entry.record
        record.ping = plain
        queuedBytes += record.approximateSize - entries[index].record.approximateSize
        entries[index].record = record
        counters.resentWithoutDescription += 1
        sendAloneNext = true
        if let key = entries[index].key { actions.append(.rewrite(key: key, record: record)) }
        actions.append(.report(.failedSendPing,
                               "the collector refused \(Self.describe([record])), \(refusal). It is sent once more without its "
                                   + "descriptive fields (title, program, segments, names), its credit unchanged",
                               to: entry.origin.map { [$0] } ?? []))
        return true
    }

    /// Counts `refused` as rejected, with their seconds, and tells the instances that built them.
    mutating func refuse(_ refused: [Entry], refusal: String, into actions: inout [DeliveryAction]) {
        guard !refused.isEmpty else { return }
        let records = refused.map(\.record)
        counters.rejected += records.count
        counters.rejectedSeconds += records.reduce(0) { $0 + $1.ping.creditedSeconds }
        actions.append(.report(.failedSendPing,
                               "the collector refused \(Self.describe(records)), \(refusal). Not sent again (it would be refused "
                                   + "again); \(Self.lost(records))",
                               to: Self.origins(refused)))
    }

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
}
