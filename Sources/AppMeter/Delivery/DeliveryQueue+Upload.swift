import Foundation

extension DeliveryQueue {
    /// The census's answer to a batch (docs/protocol.md).
    struct BatchAnswer: Decodable {
        struct Rejection: Decodable {
            let line: Int
            let reason: String
        }

        let stored: Int
        let duplicates: Int
        let rejected: [Rejection]
    }

    /// The largest batch body sent, in bytes.
    static let maxBatchBytes = 65_536

    func startUploading() {
        guard !uploading, !records.isEmpty, pausedBy.isEmpty else { return }
        uploading = true
        Task { await self.upload() }
    }

    /// The single uploader: one request in flight, waiting out backoffs, until the queue is empty
    /// or sending is paused.
    private func upload() async {
        while !records.isEmpty && pausedBy.isEmpty {
            enforceBounds()
            guard !records.isEmpty else { break }
            let sendTime = clock.now()
            let count = batchSize()
            let request: TransportRequest
            if count == 1 {
                let url = PingEncoder.url(for: records[0].record.ping, base: baseURL, sendTime: sendTime,
                                          recovered: records[0].record.recovered)
                guard let requestURL = URL(string: url) else {
                    removeFirst(1)
                    counters.rejected += 1
                    report(.failedCreateURL, "a queued ping has an invalid URL and was dropped")
                    continue
                }
                request = TransportRequest(url: requestURL)
            } else {
                request = batchRequest(count: count, sendTime: sendTime)
            }
            let keys = records.prefix(count).map(\.key)
            let outcome = await transport.send(request)
            if count > 1, case .response(let status, _, _) = outcome, status == 404 || status == 405 || status == 413 {
                // An older census without the batch endpoint, or a body too large: send fewer.
                if status == 413 { batchLimit = max(1, batchLimit / 2) } else { batchSupported = false }
                continue
            }
            await handle(outcome, keys: keys)
            publish()
        }
        uploading = false
        notifyIfIdle()
    }

    private func handle(_ outcome: TransportOutcome, keys: [String]) async {
        let count = keys.count
        let failures = consecutiveFailures + 1
        switch policy.decide(outcome, failures: failures, random: Double.random(in: 0..<1)) {
        case .delivered:
            if count > 1, case .response(_, _, let body) = outcome,
               let answer = try? JSONDecoder().decode(BatchAnswer.self, from: body) {
                counters.delivered += answer.stored + answer.duplicates
                counters.rejected += answer.rejected.count
                if let first = answer.rejected.first {
                    report(.failedSendPing, "the collector refused \(answer.rejected.count) ping(s) of a batch: \(first.reason)")
                }
            } else {
                counters.delivered += count
            }
            remove(keys: keys)
            consecutiveFailures = 0
            rateLimited = false
        case .drop:
            remove(keys: keys)
            counters.rejected += count
            consecutiveFailures = 0
            if case .response(let status, _, let body) = outcome {
                let reason = String(decoding: body.prefix(200), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
                report(.failedSendPing, "the collector refused \(count) ping(s) with HTTP \(status) \(reason); dropped")
            }
        case .retry(let wait):
            consecutiveFailures = failures
            counters.retried += 1
            if failures == 1 {
                switch outcome {
                case .failure(let reason):
                    report(.networkConnectionFailure, "the collector is unreachable (\(reason)); pings are kept and retried")
                case .response(let status, _, _):
                    report(.failedSendPing, "the collector answered HTTP \(status); pings are kept and retried")
                }
            }
            if case .response(let status, let retryAfter, _) = outcome {
                rateLimited = status == 429 || retryAfter != nil
            }
            let sleep = self.sleep
            let pause = Task { await sleep(wait) }
            backoffTask = pause
            await pause.value
            backoffTask = nil
        }
    }

    /// One ping alone when it is the only one (or batches are off); otherwise as many as fit the
    /// batch limits.
    private func batchSize() -> Int {
        guard batchSupported, records.count > 1 else { return 1 }
        var bytes = 0
        var count = 0
        for entry in records.prefix(batchLimit) {
            bytes += entry.record.approximateSize
            if count > 0 && bytes > Self.maxBatchBytes { break }
            count += 1
        }
        return count
    }

    /// `POST <base>/cgi-bin/gn/batch`, one ping query per line.
    private func batchRequest(count: Int, sendTime: Double) -> TransportRequest {
        let lines = records.prefix(count).map { entry -> String in
            let url = PingEncoder.url(for: entry.record.ping, base: baseURL, sendTime: sendTime, recovered: entry.record.recovered)
            return String(url.split(separator: "?", maxSplits: 1).last ?? "")
        }
        let url = URL(string: baseURL.absoluteString.trimmingSuffix("/") + "/cgi-bin/gn/batch")!
        return TransportRequest(url: url, method: "POST", body: Data(lines.joined(separator: "\n").utf8))
    }
}
