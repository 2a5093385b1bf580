import Foundation
import MeterWire

extension DeliveryQueue {
    func startUploading() {
        guard !uploading, firstSendable() != nil else { return }
        uploading = true
        Task { await self.upload() }
    }

    /// The single uploader: one request in flight, waiting out backoffs, until nothing is left
    /// that may be sent (the queue is empty, or what is left is held by disabled instances).
    private func upload() async {
        while firstSendable() != nil {
            enforceBounds()
            guard let start = firstSendable() else { break }
            let sendTime = clock.now()
            let count = batchSize(from: start)
            sendAloneNext = false
            let request: TransportRequest
            if count == 1 {
                let record = entries[start].record
                let url = PingEncoder.url(for: record.ping, base: baseURL, sendTime: sendTime, recovered: record.recovered,
                                          route: record.wireRoute)
                guard let requestURL = URL(string: url) else {
                    let origin = entries[start].origin
                    remove(serials: [entries[start].serial])
                    counters.rejected += 1
                    counters.rejectedSeconds += record.ping.creditedSeconds
                    report(.failedCreateURL, "a queued ping has an invalid URL and was dropped; \(Self.lost([record]))",
                           to: [origin])
                    continue
                }
                request = TransportRequest(url: requestURL, method: record.body == nil ? "GET" : "POST",
                                           body: record.body.map { Data($0.utf8) })
            } else {
                request = batchRequest(entries[start..<start + count], sendTime: sendTime)
            }
            let sent = Array(entries[start..<start + count])
            let outcome = await transport.send(request)
            if count > 1, case .response(let status, _, _) = outcome, [400, 404, 405, 413].contains(status) {
                // An older census without the batch endpoint, a body too large, or one refused whole
                // (so that no line has its own answer): send fewer, or each ping alone.
                if status == 413 { batchLimit = max(1, batchLimit / 2) } else { batchSupported = false }
                continue
            }
            await handle(outcome, sent: sent)
            publish()
        }
        uploading = false
        notifyWaiters()
    }

    private func handle(_ outcome: TransportOutcome, sent: [Entry]) async {
        let count = sent.count
        let failures = consecutiveFailures + 1
        switch policy.decide(outcome, failures: failures, random: Double.random(in: 0..<1)) {
        case .delivered:
            if count > 1, case .response(_, _, let body) = outcome,
               let answer = try? JSONDecoder().decode(BatchAnswer.self, from: body) {
                counters.delivered += answer.stored + answer.duplicates
                var kept: Set<Int> = []
                for rejection in answer.rejected where sent.indices.contains(rejection.line - 1) {
                    let entry = sent[rejection.line - 1]
                    if resendWithoutDescription(entry, refusal: "in a batch: \(Self.shown(rejection.reason))") {
                        kept.insert(entry.serial)
                    } else {
                        refuse([entry], refusal: "in a batch: \(Self.shown(rejection.reason))")
                    }
                }
                remove(serials: Set(sent.map(\.serial)).subtracting(kept))
            } else {
                counters.delivered += count
                remove(serials: Set(sent.map(\.serial)))
            }
            consecutiveFailures = 0
            rateLimited = false
        case .drop:
            consecutiveFailures = 0
            remove(serials: Set(sent.map(\.serial)))
            refuse(sent, refusal: Self.refusal(outcome))
        case .resendWithoutDescription:
            consecutiveFailures = 0
            // A batch refused whole went back to single pings before reaching here.
            if count == 1, resendWithoutDescription(sent[0], refusal: Self.refusal(outcome)) { break }
            remove(serials: Set(sent.map(\.serial)))
            refuse(sent, refusal: Self.refusal(outcome))
        case .retry(let wait):
            consecutiveFailures = failures
            counters.retried += 1
            if failures == 1 {
                let origins = sent.map(\.origin)
                switch outcome {
                case .failure(let reason):
                    report(.networkConnectionFailure, "the collector is unreachable (\(reason)); pings are kept and retried", to: origins)
                case .response(let status, _, _):
                    report(.failedSendPing, "the collector answered HTTP \(status); pings are kept and retried", to: origins)
                }
            }
            if case .response(let status, let retryAfter, _) = outcome {
                rateLimited = status == 429 || retryAfter != nil
            }
            await backOff(until: clock.now() + wait)
        }
    }

    /// Waits until `deadline` on the clock, or until ``deliverPromptly()`` cuts the wait short.
    private func backOff(until deadline: MeterInstant) async {
        retryAt = deadline
        publish()
        notifyWaiters()
        let clock = self.clock
        let pause = Task { _ = try? await clock.sleep(until: deadline) }
        backoffTask = pause
        await pause.value
        backoffTask = nil
        retryAt = nil
    }

    /// One ping alone when it is the only one (or batches are off); otherwise as many as fit the
    /// batch limits.
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
    private func batchRequest(_ batch: ArraySlice<Entry>, sendTime: MeterInstant) -> TransportRequest {
        let prefixLength = WireRoute.url(WireRoute.ping, base: baseURL.absoluteString).utf8.count + 1
        let queries = batch.map { entry in
            PingEncoder.query(for: entry.record.ping, sendTime: sendTime, recovered: entry.record.recovered,
                              prefixLength: prefixLength)
        }
        let url = URL(string: WireRoute.url(WireRoute.batch, base: baseURL.absoluteString))!
        return TransportRequest(url: url, method: "POST", body: BatchFormat.body(queries: queries))
    }
}
