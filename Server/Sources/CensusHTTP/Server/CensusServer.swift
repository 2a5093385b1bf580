package import CensusStore
import Foundation
package import Hummingbird
import HummingbirdCore
#if TLS
import HummingbirdTLS
#endif
package import Logging
import MeterWire

/// The collection server, composed: the intake every data route shares (``CensusIntake``), the
/// controllers in `Routes/` that each add their own routes, who may read (``CensusAccess``), and
/// the connections' guard. Routes are listed in docs/protocol.md.
package struct CensusServer: Sendable {
    /// The store, the writer, the registry, the budget, the policy and the event sink.
    package let intake: CensusIntake
    /// Who may read: the dashboard's data, reports, sessions, certification.
    package let access: CensusAccess
    /// How long a connection may take and how many may be open (``application(host:port:tls:onRunning:)``).
    package let connectionLimits: ConnectionLimits
    /// The open connections of ``application(host:port:tls:onRunning:)``, held to ``connectionLimits``.
    package let connections: ConnectionTable
    /// Where the read routes work, away from the threads that take pings.
    package let readThreads = ReadThreads()
    /// The line per request ``application(host:port:tls:onRunning:)`` writes, or nil for none (docs/census.md §4f).
    package let accessLog: AccessLog?
    /// The replica the read routes use (`--read-database`), or nil: they read the store.
    package let replica: ReadReplica?

    /// Creates a server over a migrated store; ``maintain()`` loads its apps and budget.
    /// With `replica`, reports, session lists, traces, certification and the stored counts are
    /// read from it (census-decisions.md S49).
    package init(store: PingStore, replica: ReadReplica? = nil, access: CensusAccess = .open, policy: CensusPolicy = .standard,
                 connectionLimits: ConnectionLimits = .standard(), accessLog: AccessLog? = nil,
                 logger: Logger = Logger(label: "Census")) {
        self.replica = replica
        self.intake = CensusIntake(store: store, policy: policy, events: CensusEvents(logger: logger))
        self.access = access
        self.connectionLimits = connectionLimits
        self.connections = ConnectionTable(limit: connectionLimits.maxConnections, bodyBudget: connectionLimits.bodyBudget)
        self.accessLog = accessLog
    }

    /// The router with every census route, each controller given only what it needs.
    package func router() -> Router<BasicRequestContext> {
        let router = Router()
        router.add(middleware: ReadOnlyAPI())
        HealthController(store: store, writer: intake.writer).addRoutes(to: router)
        PingController(intake: intake).addRoutes(to: router)
        ViewabilityController(intake: intake).addRoutes(to: router)
        AMPController(intake: intake).addRoutes(to: router)
        TraceController(intake: intake).addRoutes(to: router)
        DashboardController().addRoutes(to: router)
        OpenAPIController().addRoutes(to: router)
        BrowserController(intake: intake).addRoutes(to: router)
        let stats = StatsController(intake: intake, reads: reads, replica: replica, connections: connections, access: access)
        stats.addRoutes(to: router)
        sessions.addOpenRoutes(to: router)

        let api = router.group("api/v1").add(middleware: AccessGuard(access: access))
            .add(middleware: ReadThreadsMiddleware(threads: readThreads))
        ReportController(store: reads, replica: replica, policy: policy).addRoutes(to: api)
        stats.addRoutes(to: api)
        sessions.addRoutes(to: api)
        return router
    }

    /// The read routes of sessions, traces and certification.
    package var sessions: SessionController { SessionController(store: reads, keys: store.traces, feed: feed) }

    /// Where the read routes read: the replica when there is one, else the store.
    package var reads: PingStore { replica?.store ?? store }

    /// An application listening on `host:port` (0 picks a free port; `onRunning` learns which),
    /// its connections held to ``connectionLimits``; with `tls`, it answers HTTPS only.
    package func application(
        host: String, port: Int, tls: CensusTLS? = nil, onRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) throws -> some ApplicationProtocol {
        let timeouts = connectionLimits.timeouts
        // The guard's installer first and the access log's next: both must sit in front of the ping
        // fast path. With TLS they sit behind the TLS handler, on the decrypted stream.
        let http = HTTPServerBuilder.http1(configuration: .init(additionalChannelHandlers:
            [ConnectionGuardInstaller(table: connections, timeouts: timeouts)]
                + (accessLog.map { [AccessLogInstaller(log: $0)] } ?? [])
                + [PingIngestInstaller(intake: intake)]))
        #if TLS
        let server = try tls.map { try .tls(http, tlsConfiguration: $0.configuration) } ?? http
        #else
        let server = http  // no CensusTLS can be made without the TLS trait
        #endif
        return Application(
            router: router(),
            server: server,
            configuration: .init(address: .hostname(host, port: port), serverName: "AppMeter-Census"),
            onServerRunning: { channel in await onRunning(channel.localAddress?.port ?? port) },
            logger: logger)
    }
}

/// What tools, the demo and tests read of a running server.
extension CensusServer {
    /// Where pings are stored.
    package var store: PingStore { intake.store }
    /// The group-commit writer in front of the store.
    package var writer: PingWriter { intake.writer }
    /// What the operator decided the census takes and keeps.
    package var policy: CensusPolicy { intake.policy }
    /// What the dashboards watching live are sent.
    package var feed: LiveFeed { intake.events.feed }
    /// What `GET /metrics` exposes.
    package var metrics: CensusMetrics { intake.events.metrics }
    /// The census's clock: its store's (``PingStore/clock``).
    package var clock: any CensusClock { intake.clock }
    /// Counters since start.
    package var sinceStart: CensusCounters { intake.events.sinceStart }
    /// The server's log.
    package var logger: Logger { intake.events.logger }
    /// One round of upkeep (``CensusMaintenance``).
    package func maintain() async { await intake.maintain() }
}
