import Foundation

/// The wait before each delivery retry.
public enum DeliveryQueueBackoff {
    /// Seconds before retry number `attempt` (1-based): 1 s doubling, capped at 60 s.
    public static func seconds(attempt: Int) -> Double {
        min(60, pow(2, Double(min(max(attempt, 1), 16) - 1)))
    }
}

/// Counters of what happened to pings, for diagnostics and tests.
public struct DeliveryCounters: Sendable, Equatable {
    /// Creates counters.
    public init(delivered: Int = 0, rejected: Int = 0, retried: Int = 0) {
        self.delivered = delivered
        self.rejected = rejected
        self.retried = retried
    }

    /// Pings the collector accepted (2xx).
    public var delivered: Int
    /// Pings the collector refused for good (4xx other than 408/429).
    public var rejected: Int
    /// Send attempts that will be tried again.
    public var retried: Int
}

/// The ordered in-memory ping queue: pings leave in the order they were built, one request in
/// flight at a time, and a ping leaves the queue only when the collector answered 2xx or refused
/// it for good. Transport failures, 408, 429 and 5xx are retried with capped exponential backoff
/// (honouring `Retry-After`), so no ping is dropped while the collector answers.
actor DeliveryQueue {
    typealias Sleeper = @Sendable (Double) async -> Void

    private let transport: PingTransport
    private let baseURL: URL
    private let clock: MeterClock
    private let sleep: Sleeper
    private let report: @Sendable (MeterEventCode, String) -> Void
    private var pending: [Ping] = []
    private var running = false
    private var idleWaiters: [CheckedContinuation<Void, Never>] = []
    private(set) var counters = DeliveryCounters()

    init(
        transport: PingTransport, baseURL: URL, clock: MeterClock, sleep: @escaping Sleeper,
        report: @escaping @Sendable (MeterEventCode, String) -> Void
    ) {
        self.transport = transport
        self.baseURL = baseURL
        self.clock = clock
        self.sleep = sleep
        self.report = report
    }

    /// Queues `ping` for sending.
    func enqueue(_ ping: Ping) {
        pending.append(ping)
        guard !running else { return }
        running = true
        Task { await self.drain() }
    }

    /// Returns once every queued ping has left the queue.
    func waitUntilIdle() async {
        guard running || !pending.isEmpty else { return }
        await withCheckedContinuation { idleWaiters.append($0) }
    }

    private func drain() async {
        var failures = 0
        while let ping = pending.first {
            let url = PingEncoder.url(for: ping, base: baseURL, sendTime: clock.now())
            guard let requestURL = URL(string: url) else {
                pending.removeFirst()
                counters.rejected += 1
                report(.failedCreateURL, "ping \(ping.id) has an invalid URL and was dropped")
                continue
            }
            let outcome = await transport.send(TransportRequest(url: requestURL))
            switch outcome {
            case .response(let status, _, _) where (200..<300).contains(status):
                pending.removeFirst()
                counters.delivered += 1
                failures = 0
            case .response(let status, _, _) where (400..<500).contains(status) && status != 408 && status != 429:
                pending.removeFirst()
                counters.rejected += 1
                report(.failedSendPing, "the collector refused ping \(ping.id) with HTTP \(status); dropped")
            case .response(let status, let retryAfter, _):
                failures += 1
                counters.retried += 1
                if failures == 1 { report(.failedSendPing, "the collector answered HTTP \(status); retrying") }
                await sleep(max(retryAfter ?? 0, DeliveryQueueBackoff.seconds(attempt: failures)))
            case .failure(let reason):
                failures += 1
                counters.retried += 1
                if failures == 1 { report(.networkConnectionFailure, "the collector is unreachable (\(reason)); retrying") }
                await sleep(DeliveryQueueBackoff.seconds(attempt: failures))
            }
        }
        running = false
        let waiters = idleWaiters
        idleWaiters.removeAll()
        waiters.forEach { $0.resume() }
    }
}
