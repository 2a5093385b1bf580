import CensusStore
import Hummingbird
import MeterWire
import NIOConcurrencyHelpers
package import Prometheus

/// What `GET /metrics` exposes as Prometheus text (docs/census.md §4e): each server its own
/// ``PrometheusCollectorRegistry``, never swift-metrics' process-wide `MetricsSystem`, which one
/// process can bootstrap only once (the tests start many servers in one).
///
/// The collectors are swift-prometheus' own (its `Counter`, `Gauge` and `DurationHistogram`, which
/// are swift-metrics handlers), not swift-metrics' façade over a `PrometheusMetricsFactory`: the
/// factory registers every name with no help text, and the registry refuses a second help text
/// for a name, so the façade would mean a `/metrics` without `# HELP` lines; the census owns its
/// exposition and gains nothing from a façade meant to let a library emit into any backend.
///
/// What a ping costs here: an atomic add per counter it moves and a histogram entry under a lock,
/// no allocation. What the census counts anyway (``CensusCounters``, ``ConnectionCounters``) is
/// brought into the registry when a scraper asks, not counted twice per ping; the queues are
/// read then too. Every label value is from a fixed set, never from a request.
package final class CensusMetrics: Sendable {
    /// What became of a ping handled by `GET /cgi-bin/gn`: the histogram's `outcome` label.
    package enum PingOutcome: String, CaseIterable, Sendable {
        case stored, duplicate, refused, failed
    }

    /// The bounds of the ping-handling histogram's buckets: a refusal is answered in well under a
    /// millisecond, a stored ping after its group commit, a few milliseconds on a disk that syncs.
    static let pingDurationBuckets: [Duration] = [
        .microseconds(250), .microseconds(500), .milliseconds(1), .milliseconds(2.5), .milliseconds(5),
        .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250), .seconds(1),
    ]

    package let registry: PrometheusCollectorRegistry
    private let refusedBy: [RefusalCategory: Counter]
    private let seconds: Seconds
    private let pingDurations: [PingOutcome: DurationHistogram]
    private let gauges: Gauges
    /// The counters kept elsewhere, and what of them was exported so far.
    private let mirrors: NIOLockedValueBox<Mirrors>

    /// The seconds the pings stored claim.
    private struct Seconds: Sendable {
        let credited: Counter
        let overBound: Counter
        /// Viewability pings' seconds, within their bounds, by `kind`: measured, viewable, audible.
        let viewability: (measured: Counter, viewable: Counter, audible: Counter)
        let viewabilityOverBound: Counter
    }

    /// What is in flight now, read when a scraper asks.
    private struct Gauges: Sendable {
        let queueWaiting: (pings: Gauge, rejects: Gauge)
        let queueWriters: (pings: Gauge, rejects: Gauge)
        let connectionsOpen: Gauge
        let bodyBytesHeld: Gauge
        let storageStalled: Gauge
    }

    private struct Mirrors: Sendable {
        var census: CounterMirror<CensusCounters>
        var connections: CounterMirror<ConnectionCounters>
        /// The read replica's gauges, made at the first scrape that has a replica's sample: a
        /// census without one shows none, rather than a lag of 0.
        var replica: (lag: Gauge, answering: Gauge)?
    }

    package init() {
        let registry = PrometheusCollectorRegistry()
        self.registry = registry
        let named = Self.named
        func counter(_ name: String, _ help: String) -> Counter { registry.makeCounter(descriptor: named(name, "total", help)) }

        let refused = named("refused", "total", "Requests refused (400, 403, 413), by a reason from a fixed set")
        refusedBy = Dictionary(uniqueKeysWithValues: RefusalCategory.allCases.map { category in
            (category, registry.makeCounter(descriptor: refused, labels: [("reason", category.rawValue)]))
        })
        let creditedSeconds = registry.makeCounter(descriptor: named(
            "credited_seconds", "total", "Seconds the pings stored credit, within their bounds (pings and batches; not AMP replays)"))
        let overBoundSeconds = registry.makeCounter(descriptor: named(
            "over_bound_seconds", "total", "Seconds the pings stored claimed beyond their kind's bound: stored as over-bound, never credited"))
        let viewability = named("viewability_seconds", "total",
                                "Seconds the viewability pings stored count, within their bounds, by kind (not flagged by the session rule here: the report flags)")
        func viewabilityKind(_ kind: String) -> Counter { registry.makeCounter(descriptor: viewability, labels: [("kind", kind)]) }
        seconds = Seconds(
            credited: creditedSeconds, overBound: overBoundSeconds,
            viewability: (viewabilityKind("measured"), viewabilityKind("viewable"), viewabilityKind("audible")),
            viewabilityOverBound: registry.makeCounter(descriptor: named(
                "viewability_over_bound_seconds", "total", "Measured seconds the viewability pings stored claimed beyond their bound: never counted")))
        let durations = named("ping_duration", "seconds", "Time from reading a GET \(WireRoute.ping) request to its answer, its commit included")
        pingDurations = Dictionary(uniqueKeysWithValues: PingOutcome.allCases.map { outcome in
            (outcome, registry.makeDurationHistogram(descriptor: durations, labels: [("outcome", outcome.rawValue)],
                                                     buckets: Self.pingDurationBuckets))
        })
        func queueGauges(_ name: String, _ help: String) -> (pings: Gauge, rejects: Gauge) {
            (registry.makeGauge(descriptor: named(name, "", help), labels: [("queue", "pings")]),
             registry.makeGauge(descriptor: named(name, "", help), labels: [("queue", "rejects")]))
        }
        gauges = Gauges(
            queueWaiting: queueGauges("commit_queue_depth", "Items waiting for the group commit's next batch"),
            queueWriters: queueGauges("commit_writers", "Group-commit writers committing now"),
            connectionsOpen: registry.makeGauge(descriptor: named("connections_open", "", "Connections open now")),
            bodyBytesHeld: registry.makeGauge(descriptor: named(
                "request_body_bytes_held", "", "Bytes of request bodies the census holds now: arrived, their answers not yet written")),
            storageStalled: registry.makeGauge(descriptor: named(
                "storage_stalled_seconds", "", "Seconds since the database last answered a ping write, while it has left one unanswered past the bound; 0 while it answers")))

        var census = CounterMirror<CensusCounters>()
        census.add(counter("pings_stored", "Pings stored for the first time (pings and batches; not AMP replays)")) { $0.stored }
        census.add(counter("pings_duplicate", "Pings whose id was already stored: credited once, not again")) { $0.duplicates }
        census.add(counter("storage_failures", "Requests answered 503 because the store failed: the sender retries")) {
            $0.storageFailures
        }
        census.add(counter("storage_unconfirmed", "Of those, requests whose write was sent and never confirmed (no answer within the bound, or a commit whose connection was lost): it may be stored")) {
            $0.storageUnconfirmed
        }
        census.add(counter("refusals_not_recorded", "Refused requests not recorded: the rejects' budget was full")) {
            $0.rejectsNotRecorded
        }
        census.add(counter("config_requests", "Config requests answered")) { $0.configRequests }
        census.add(counter("amp_events", "Google AMP cloud-API requests stored, each replaying its page view")) { $0.ampEvents }
        census.add(counter("amp_events_not_credited", "Google AMP cloud-API requests past their page view's limit: neither stored nor credited")) {
            $0.ampEventsNotCredited
        }
        census.add(counter("amp_sessions", "Google AMP prd=session pings accepted")) { $0.ampSessions }
        census.add(counter("viewability_pings_stored", "Viewability pings stored for the first time")) { $0.viewabilityPings }
        census.add(counter("trace_entries_stored", "Call trace entries stored for the first time")) { $0.traceEntries }
        census.add(counter("traces_over_budget", "Trace batches answered 503: the traces' budget was full")) { $0.tracesOverBudget }
        var connections = CounterMirror<ConnectionCounters>()
        connections.add(counter("connections_accepted", "Connections accepted")) { $0.accepted }
        let closedBy = named("connections_closed", "total", "Connections the census closed, by why")
        func closed(_ reason: String) -> Counter { registry.makeCounter(descriptor: closedBy, labels: [("reason", reason)]) }
        connections.add(closed("evicted")) { $0.evicted }
        connections.add(closed("refused")) { $0.refused }
        connections.add(closed("header_timeout")) { $0.headerTimeouts }
        connections.add(closed("body_timeout")) { $0.bodyTimeouts }
        connections.add(closed("idle_timeout")) { $0.idleTimeouts }
        connections.add(closed("write_timeout")) { $0.writeTimeouts }
        connections.add(closed("body_budget")) { $0.shedForBodyBudget }
        mirrors = NIOLockedValueBox(Mirrors(census: census, connections: connections))
    }

    /// Counts a refused request.
    func refused(_ category: RefusalCategory) {
        refusedBy[category]?.increment()
    }

    /// Counts the seconds of a ping stored for the first time.
    func stored(_ ping: IncomingPing) {
        // Never negative for a ping the validator and the bounds passed; held at 0 all the same, as
        // the counter traps on a negative amount and the seconds came from the network.
        seconds.credited.increment(by: max(0, ping.creditedSeconds))
        if ping.overBoundSeconds > 0 { seconds.overBound.increment(by: ping.overBoundSeconds) }
    }

    /// Counts the seconds of a viewability ping stored for the first time.
    func stored(_ ping: IncomingViewability) {
        seconds.viewability.measured.increment(by: max(0, ping.measuredSeconds))
        seconds.viewability.viewable.increment(by: max(0, ping.viewableSeconds))
        seconds.viewability.audible.increment(by: max(0, ping.audibleSeconds))
        if ping.overBoundSeconds > 0 { seconds.viewabilityOverBound.increment(by: ping.overBoundSeconds) }
    }

    /// Records how long a ping took from `received` to its answer.
    func answered(_ outcome: PingOutcome, since received: ContinuousClock.Instant) {
        pingDurations[outcome]?.record(received.duration(to: .now))
    }

    /// The Prometheus text: the counters kept elsewhere and the queues brought up to date first.
    func exposition(counters: CensusCounters, connections: ConnectionCounters,
                    queues: (pings: (waiting: Int, writers: Int), rejects: (waiting: Int, writers: Int)),
                    stalledSeconds: Int = 0, replica: ReadReplica.Status? = nil) -> [UInt8] {
        mirrors.withLockedValue { mirrors in
            if let replica {
                let gauges = mirrors.replica ?? makeReplicaGauges()
                if mirrors.replica == nil { gauges.lag.set(Double.nan) }  // no lag known yet, not 0
                mirrors.replica = gauges
                gauges.answering.set(Int64(replica.answering ? 1 : 0))
                // A replica that did not answer keeps its last lag, beside answering 0.
                if let lag = replica.lagSeconds { gauges.lag.set(lag) }
            }
            mirrors.census.update(from: counters)
            mirrors.connections.update(from: connections)
            gauges.queueWaiting.pings.set(Int64(queues.pings.waiting))
            gauges.queueWaiting.rejects.set(Int64(queues.rejects.waiting))
            gauges.queueWriters.pings.set(Int64(queues.pings.writers))
            gauges.queueWriters.rejects.set(Int64(queues.rejects.writers))
            gauges.connectionsOpen.set(Int64(connections.open))
            gauges.bodyBytesHeld.set(Int64(connections.bodyBytesHeld))
            gauges.storageStalled.set(Int64(stalledSeconds))
            // Under the lock: two scrapes at once each see every update of the one before.
            return registry.emitToBuffer()
        }
    }

    /// `appmeter_census_<name>_<unit>`.
    private static func named(_ name: String, _ unit: String, _ help: String) -> MetricNameDescriptor {
        MetricNameDescriptor(namespace: "appmeter", subsystem: "census", metricName: name, unitName: unit, helpText: help)
    }

    /// `appmeter_census_read_replica_lag_seconds` and `appmeter_census_read_replica_answering`.
    private func makeReplicaGauges() -> (lag: Gauge, answering: Gauge) {
        (registry.makeGauge(descriptor: Self.named(
            "read_replica_lag", "seconds", "Seconds the read replica's data was behind the primary's at its last sample (0: caught up)")),
         registry.makeGauge(descriptor: Self.named(
            "read_replica_answering", "", "1 when the read replica answered its last sample, 0 when it did not")))
    }
}

/// Prometheus counters that follow counts kept elsewhere: each update adds what the count grew by
/// since the last one (the counts only grow).
struct CounterMirror<Source>: Sendable {
    private struct Row: Sendable {
        let counter: Counter
        let read: @Sendable (Source) -> Int
        var exported = 0
    }

    private var rows: [Row] = []

    /// Makes `counter` follow what `read` reads.
    mutating func add(_ counter: Counter, _ read: @escaping @Sendable (Source) -> Int) {
        rows.append(Row(counter: counter, read: read))
    }

    mutating func update(from source: Source) {
        for index in rows.indices {
            let now = rows[index].read(source)
            guard now > rows[index].exported else { continue }
            rows[index].counter.increment(by: Int64(now - rows[index].exported))
            rows[index].exported = now
        }
    }
}

extension CensusMetrics {
    /// Prometheus' text format, as scrapers ask for it.
    static let contentType = "text/plain; version=0.0.4; charset=utf-8"
}
