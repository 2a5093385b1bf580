import Foundation
import MeterWire

/// The upload's decisions: which request goes next, and what its outcome means.
extension DeliveryMachine {
    /// Marks the upload as started when there is something to send and none is under way; the
    /// owner then runs one upload loop (``nextAttempt(base:at:into:)`` until nil).
    mutating func beginUpload() -> Bool {
        guard !uploading, firstSendable() != nil else { return false }
        uploading = true
        return true
    }

    /// The upload loop ended: nothing is left that may be sent now.
    mutating func endUpload() {
        uploading = false
    }

    /// Whether ``DeliveryQueue/deliverPromptly()`` may cut a backoff short: not when the
    /// collector asked to wait (429 / Retry-After).
    var mayCutBackoffShort: Bool { !rateLimited }

    /// The retry wait is over (or was cut short).
    mutating func backoffEnded() {
        retryAt = nil
    }

    /// The next request, or nil when nothing may be sent now. Bounds are applied first; a ping
    /// whose URL cannot be built is dropped and told.
    mutating func nextAttempt(base: URL, at now: MeterInstant, into actions: inout [DeliveryAction]) -> DeliveryAttempt? {
        while true {
            enforceBounds(at: now, into: &actions)
            guard let start = firstSendable() else { return nil }
            let count = batchSize(from: start)
            sendAloneNext = false
            let sent = Array(entries[start..<start + count])
            guard count == 1 else { return DeliveryAttempt(request: batchRequest(sent, base: base, sendTime: now), sent: sent) }
            let record = sent[0].record
            let url = PingEncoder.url(for: record.ping, base: base, sendTime: now, recovered: record.recovered, route: record.wireRoute)
            if let requestURL = URL(string: url) {
                let request = TransportRequest(url: requestURL, method: record.body == nil ? "GET" : "POST",
                                               body: record.body.map { Data($0.utf8) })
                return DeliveryAttempt(request: request, sent: sent)
            }
            remove(serials: [sent[0].serial], into: &actions)
            counters.rejected += 1
            counters.rejectedSeconds += record.ping.creditedSeconds
            actions.append(.report(.failedCreateURL, "a queued ping has an invalid URL and was dropped; \(Self.lost([record]))",
                                   to: sent[0].origin.map { [$0] } ?? []))
        }
    }

    /// What `outcome` of `attempt` means: entries removed, counted, resent plain or kept for a
    /// retry, the instances told; and whether the owner goes on or waits. `random` in 0..<1
    /// jitters the backoff.
    mutating func received(
        _ outcome: TransportOutcome, for attempt: DeliveryAttempt, at now: MeterInstant, random: Double,
        into actions: inout [DeliveryAction]
    ) -> AfterAttempt {
        let sent = attempt.sent
        let count = sent.count
        if count > 1, case .response(let status, _, _) = outcome, [400, 404, 405, 413].contains(status) {
            // An older census without the batch endpoint, a body too large, or one refused whole
            // (so that no line has its own answer): send fewer, or each ping alone.
            if status == 413 { batchLimit = max(1, batchLimit / 2) } else { batchSupported = false }
            return .next
        }
        let failures = consecutiveFailures + 1
        switch policy.decide(outcome, failures: failures, random: random) {
        case .delivered:
            delivered(outcome, sent, into: &actions)
            consecutiveFailures = 0
            rateLimited = false
        case .drop:
            consecutiveFailures = 0
            remove(serials: Set(sent.map(\.serial)), into: &actions)
            refuse(sent, refusal: Self.refusal(outcome), into: &actions)
        case .resendWithoutDescription:
            consecutiveFailures = 0
            // A batch refused whole went back to single pings before reaching here.
            if count == 1, resendWithoutDescription(sent[0], refusal: Self.refusal(outcome), into: &actions) { break }
            remove(serials: Set(sent.map(\.serial)), into: &actions)
            refuse(sent, refusal: Self.refusal(outcome), into: &actions)
        case .retry(let wait):
            consecutiveFailures = failures
            counters.retried += 1
            if failures == 1 {
                let origins = Self.origins(sent)
                let (code, what) = Self.failure(outcome)
                actions.append(.report(code, "\(what); pings are kept and retried", to: origins))
            }
            if case .response(let status, let retryAfter, _) = outcome {
                rateLimited = status == 429 || retryAfter != nil
            }
            retryAt = now + wait
            return .backOff(until: now + wait)
        }
        return .next
    }

    /// The code and words of a failed attempt's first report (decisions.md E11a): 1001 the collector
    /// unreachable, 8 the request not created, 9 the HTTP exchange failed, 10 an error status.
    static func failure(_ outcome: TransportOutcome) -> (MeterEventCode, String) {
        switch outcome {
        case .failure(let reason): (.networkConnectionFailure, "the collector is unreachable (\(reason))")
        case .requestNotCreated(let reason): (.failedCreateRequest, "the request to the collector could not be created (\(reason))")
        case .exchangeFailed(let reason): (.failedSendHTTPRequest, "the HTTP request to the collector failed (\(reason))")
        case .response(let status, _, _): (.failedSendPing, "the collector answered HTTP \(status)")
        }
    }

    /// Accepted: each line of a batch's answer that refused its ping is resent plain or dropped.
    private mutating func delivered(_ outcome: TransportOutcome, _ sent: [Entry], into actions: inout [DeliveryAction]) {
        guard sent.count > 1, case .response(_, _, let body) = outcome,
              let answer = try? JSONDecoder().decode(BatchAnswer.self, from: body) else {
            counters.delivered += sent.count
            return remove(serials: Set(sent.map(\.serial)), into: &actions)
        }
        counters.delivered += answer.stored + answer.duplicates
        var kept: Set<Int> = []
        for rejection in answer.rejected where sent.indices.contains(rejection.line - 1) {
            let entry = sent[rejection.line - 1]
            let refusal = "in a batch: \(Self.shown(rejection.reason))"
            if resendWithoutDescription(entry, refusal: refusal, into: &actions) {
                kept.insert(entry.serial)
            } else {
                refuse([entry], refusal: refusal, into: &actions)
            }
        }
        remove(serials: Set(sent.map(\.serial)).subtracting(kept), into: &actions)
    }

    /// The instances that built `entries`, each once, in the order of their first ping.
    static func origins(_ entries: [Entry]) -> [UUID] {
        var seen: Set<UUID> = []
        return entries.compactMap { $0.origin }.filter { seen.insert($0).inserted }
    }

    /// How many entries from `start` go in the next request: one, or a batch that stops before a
    /// ping with a body, a held ping, the batch limit or the batch's byte limit.
    private func batchSize(from start: Int) -> Int {
        guard batchSupported, !sendAloneNext, entries.count > start + 1, entries[start].record.body == nil else { return 1 }
        var bytes = 0
        var count = 0
        // Viewability pings (with a body) go alone, in their place in the queue.
        for entry in entries[start...].prefix(batchLimit) {
            if entry.record.body != nil || isHeld(entry) { break }
            bytes += entry.record.approximateSize
            if count > 0 && bytes > BatchFormat.sdkMaxBytes { break }
            count += 1
        }
        return count
    }

    /// `POST <base>/cgi-bin/gn/batch`, one ping query per line.
    private func batchRequest(_ batch: [Entry], base: URL, sendTime: MeterInstant) -> TransportRequest {
        let prefixLength = WireRoute.url(WireRoute.ping, base: base.absoluteString).utf8.count + 1
        let queries = batch.map { entry in
            PingEncoder.query(for: entry.record.ping, sendTime: sendTime, recovered: entry.record.recovered,
                              prefixLength: prefixLength)
        }
        let url = URL(string: WireRoute.url(WireRoute.batch, base: base.absoluteString))!
        return TransportRequest(url: url, method: "POST", body: BatchFormat.body(queries: queries))
    }
}
