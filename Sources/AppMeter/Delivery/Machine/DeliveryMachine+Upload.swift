import Foundation
import MeterWire

/// The upload's reading of the machine's state: which request goes next, and in what words a
/// failed attempt is told. The transitions are in DeliveryMachine.swift.
extension DeliveryMachine {
    /// Whether ``DeliveryQueue/deliverPromptly()`` may cut a backoff short: not when the
    /// collector asked to wait (429 / Retry-After).
    var mayCutBackoffShort: Bool { !retries.rateLimited }

    /// While a retry waits: when the next attempt is due.
    var retryAt: MeterInstant? {
        if case .backingOff(let until) = upload { until } else { nil }
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

    /// The instances that built `entries`, each once, in the order of their first ping.
    static func origins(_ entries: [Entry]) -> [UUID] {
        var seen: Set<UUID> = []
        return entries.compactMap { $0.origin }.filter { seen.insert($0).inserted }
    }

    /// How many entries from `start` go in the next request: one, or a batch that stops before a
    /// ping with a body, a held ping, the batch limit or the batch's byte limit.
    func batchSize(from start: Int) -> Int {
        guard batchSupported, upload != .sending(aloneNext: true), entries.count > start + 1,
              entries[start].record.body == nil else { return 1 }
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

    /// The request carrying `sent`: one ping's, or `POST <base>/cgi-bin/gn/batch` with one ping
    /// query per line; nil when a single ping's URL cannot be built.
    static func request(for sent: [Entry], base: URL, sendTime: MeterInstant) -> TransportRequest? {
        guard sent.count == 1 else { return batchRequest(sent, base: base, sendTime: sendTime) }
        let record = sent[0].record
        let url = PingEncoder.url(for: record.ping, base: base, sendTime: sendTime, recovered: record.recovered, route: record.wireRoute)
        guard let requestURL = URL(string: url) else { return nil }
        return TransportRequest(url: requestURL, method: record.body == nil ? "GET" : "POST", body: record.body.map { Data($0.utf8) })
    }

    private static func batchRequest(_ batch: [Entry], base: URL, sendTime: MeterInstant) -> TransportRequest {
        let prefixLength = WireRoute.url(WireRoute.ping, base: base.absoluteString).utf8.count + 1
        let queries = batch.map { entry in
            PingEncoder.query(for: entry.record.ping, sendTime: sendTime, recovered: entry.record.recovered,
                              prefixLength: prefixLength)
        }
        let url = URL(string: WireRoute.url(WireRoute.batch, base: base.absoluteString))!
        return TransportRequest(url: url, method: "POST", body: BatchFormat.body(queries: queries))
    }

    // MARK: Observers

    /// Where the queue stands for a waiter, or nil while it must go on waiting.
    func settlement(acceptingBackoff: Bool) -> QueueSettlement? {
        if firstSendable() == nil { return .idle }
        if acceptingBackoff, let retryAt { return .retrying(at: retryAt) }
        return nil
    }

    var diagnostics: DeliveryDiagnostics {
        DeliveryDiagnostics(
            counters: counters, queued: entries.count, queuedBytes: queuedBytes,
            inMemoryOnly: inMemoryOnly, paused: !pausedBy.isEmpty,
            consecutiveFailures: consecutiveFailures, nextAttempt: retryAt)
    }
}
