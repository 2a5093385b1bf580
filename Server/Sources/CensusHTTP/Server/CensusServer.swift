import CensusStore
import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import Logging
import MeterWire

/// The collection server: receives pings and config requests from the SDK, stores them, and
/// answers reports. Routes are listed in docs/protocol.md.
package struct CensusServer: Sendable {
    /// Where pings are stored.
    package let store: PingStore
    /// The group-commit writer in front of the store.
    package let writer: PingWriter
    let ampIngest: AMPIngest
    let counters = CensusCounterBox()
    /// What `GET /metrics` exposes: this server's own registry, never a process-wide one.
    package let metrics = CensusMetrics()
    let logger: Logger
    /// Who may read: the dashboard's data, reports, sessions, certification.
    package let access: CensusAccess
    /// What the dashboards watching live are sent.
    package let feed = LiveFeed()
    /// What the operator decided the census takes and keeps.
    package let policy: CensusPolicy
    /// The apps with settings, for the ping path's bounds and admission.
    package let registry: AppRegistry
    /// The bytes rejects and traces take against their quotas.
    package let budget: StorageBudget
    /// How long a connection may take and how many may be open (``application(host:port:onRunning:)``).
    package let connectionLimits: ConnectionLimits
    /// The open connections of ``application(host:port:onRunning:)``, held to ``connectionLimits``.
    package let connections: ConnectionTable
    /// Where the read routes work, away from the threads that take pings.
    let readThreads = ReadThreads()
    /// The line per request ``application(host:port:tls:onRunning:)`` writes, or nil for none (docs/census.md §4f).
    package let accessLog: AccessLog?

    /// Creates a server over a migrated store; ``maintain()`` loads its apps and budget.
    package init(store: PingStore, access: CensusAccess = .open, policy: CensusPolicy = .standard,
                connectionLimits: ConnectionLimits = .standard(), accessLog: AccessLog? = nil,
                logger: Logger = Logger(label: "Census")) {
        self.store = store
        self.writer = PingWriter(store: store)
        self.ampIngest = AMPIngest(store: store)
        self.access = access
        self.policy = policy
        self.registry = AppRegistry(registeredOnly: policy.registeredAppsOnly)
        self.budget = StorageBudget(limits: policy.storage)
        self.connectionLimits = connectionLimits
        self.connections = ConnectionTable(limit: connectionLimits.maxConnections, bodyBudget: connectionLimits.bodyBudget)
        self.accessLog = accessLog
        self.logger = logger
    }

    /// The census's clock: its store's (``PingStore/clock``).
    package var clock: any CensusClock { store.clock }

    /// Counters since start.
    package var sinceStart: CensusCounters { counters.value }

    /// The router with every census route.
    package func router() -> Router<BasicRequestContext> {
        let router = Router()
        router.get("/healthz") { _, _ in Response.text(.ok, "ok") }
        router.get("/readyz") { _, _ in await self.readiness() }
        router.get(RouterPath(WireRoute.ping)) { request, _ in await self.receivePing(request) }
        router.post(RouterPath(WireRoute.batch)) { request, context in try await self.receiveBatch(request, context) }
        router.post(RouterPath(WireRoute.viewability)) { request, _ in await self.receiveViewability(request) }
        router.get(RouterPath(WireRoute.config)) { request, context in await self.config(request, context) }
        router.get(RouterPath(Self.ampCloudAPIRoute)) { request, context in await self.receiveAMPCloudAPI(request, context) }
        router.post(RouterPath(WireRoute.trace)) { request, _ in
            // Pages post their traces too (the browser SDK): any origin may read the answer.
            var response = await self.receiveTrace(request)
            response.headers[.accessControlAllowOrigin] = "*"
            return response
        }
        addDashboardRoutes(to: router)
        addBrowserRoutes(to: router)
        addMetricsRoute(to: router)
        // Open: whoever is handed an export must be able to check it without the read token.
        router.get("/certification/key") { _, _ in
            CertificationKeyInfo(publicKey: try await self.store.traces.signingKey().publicKey.rawRepresentation.base64EncodedString())
        }

        let api = router.group("api/v1").add(middleware: AccessGuard(access: access))
            .add(middleware: ReadThreadsMiddleware(threads: readThreads))
        api.get("report") { request, context in try await self.report(request, context) }
        api.get("report/dtvr") { request, context in try await self.dtvrReport(request, context) }
        api.get("report/viewability") { request, context in try await self.viewabilityReport(request, context) }
        api.get("sessions/:session/pings") { request, context in
            let session = try context.parameters.decoded("session")
            return SessionResponse(session: session, pings: try await self.store.sessions.pings(session: session, appid: request.appParameter))
        }
        api.get("stats") { _, _ in
            let counts = try await self.store.counts()
            return StatsResponse(storedPings: counts.pings, storedRejects: counts.rejects, sinceStart: self.sinceStart,
                                 connections: self.connections.counters)
        }
        addSessionRoutes(to: api)
        return router
    }

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
                + [PingIngestInstaller(server: self)]))
        return Application(
            router: router(),
            server: try tls.map { try .tls(http, tlsConfiguration: $0.configuration) } ?? http,
            configuration: .init(address: .hostname(host, port: port), serverName: "AppMeter-Census"),
            onServerRunning: { channel in await onRunning(channel.localAddress?.port ?? port) },
            logger: logger)
    }

    /// Counts a committed ping: stored, with its seconds, or a duplicate.
    func recordAccepted(_ ping: IncomingPing, _ outcome: PingWriter.Outcome) {
        let stored = outcome == .stored
        counters.update {
            if stored { $0.stored += 1 } else { $0.duplicates += 1 }
        }
        if stored { metrics.stored(ping) }
    }

    func recordStorageFailure(_ error: any Error) {
        logger.error("ping not stored", metadata: ["error": "\(error)"])
        counters.update { $0.storageFailures += 1 }
    }

    /// Refuses a request: its category for `/metrics` is `category`, else the one `status` says
    /// (``RefusalCategory/answered(_:)``).
    func reject(_ reason: String, uri: String, status: HTTPResponse.Status = .badRequest,
                category: RefusalCategory? = nil) async -> Response {
        await rejectReply(reason, uri: uri, status: status, category: category).response
    }

    /// Refuses a request with a rejection's reason and category.
    func reject(_ rejection: PingRejection, uri: String) async -> Response {
        await reject(rejection.reason, uri: uri, category: rejection.category)
    }

    /// Counts, logs and records a refused request, and says why.
    func rejectReply(_ reason: String, uri: String, status: HTTPResponse.Status = .badRequest,
                     category: RefusalCategory? = nil) async -> CensusReply {
        countReject(reason, category: category ?? .answered(status))
        guard hasRoomForReject(reason, uri: uri) else { return CensusReply(status: status, text: reason) }
        do {
            try await writer.recordReject(reason: reason, rawRequest: uri)
        } catch {
            rejectNotRecorded(error)
        }
        return CensusReply(status: status, text: reason)
    }

    /// Whether the rejects' budget has room to record this refusal (its app's quota and the
    /// budget for all); counted as not recorded when not. The answer is the same either way: a
    /// refused request must not be retried, and a 503 would ask for that.
    func hasRoomForReject(_ reason: String, uri: String) -> Bool {
        let bytes = StorageBudget.bytes(
            ofReject: String(reason.prefix(StorageBudget.maxReasonCharacters)), String(uri.prefix(PingValidator.maxURLBytes)))
        guard budget.reserve(bytes, for: StorageBudget.appid(ofRequest: uri), in: .rejects) else {
            counters.update { $0.rejectsNotRecorded += 1 }
            return false
        }
        return true
    }

    /// Counts, logs and publishes a refused request (before it is recorded).
    func countReject(_ reason: String, category: RefusalCategory) {
        counters.update { $0.rejected += 1 }
        metrics.refused(category)
        // Debug: a flood of bad requests must not become a flood of log lines (the dashboard and
        // GET /api/v1/rejects show every reason).
        logger.debug("rejected", metadata: ["reason": "\(reason)"])
        feed.publish(.reject(reason: reason))
    }

    func rejectNotRecorded(_ error: any Error) {
        logger.error("reject not recorded", metadata: ["error": "\(error)"])
    }

    private func config(_ request: Request, _ context: BasicRequestContext) async -> Response {
        let apid = request.uri.queryParameters.get(ConfigRequestField.appID.rawValue) ?? ""
        guard !apid.isEmpty, apid.count <= ConfigRequestField.maxAppIDLength else {
            return await reject("config request without a valid apid", uri: request.uri.description)
        }
        do {
            var settings = try await store.apps.settings(for: apid)
            // An app the census would refuse is told not to measure, rather than to send pings in vain.
            if !registry.admits(apid) { settings.enabled = false }
            counters.update { $0.configRequests += 1 }
            return try ConfigAnswer(appid: apid, enabled: settings.enabled, durationPingInterval: settings.durationPingInterval)
                .response(from: request, context: context)
        } catch {
            return CensusError.configUnavailable.response
        }
    }

    private func report(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        switch Self.reportQuery(request) {
        case .failure(let problem): return .text(.badRequest, problem.reason)
        case .success(var query):
            query.excludeFlagged = policy.excludeFlagged
            return try ReportResponse(rows: try await store.reports.report(query), plausibility: try await store.reports.plausibility(query),
                                      excludesFlagged: query.excludeFlagged).response(from: request, context: context)
        }
    }

    private func dtvrReport(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        switch Self.reportQuery(request) {
        case .failure(let problem): return .text(.badRequest, problem.reason)
        case .success(let query):
            return try DTVRReportResponse(rows: try await store.reports.dtvrReport(query)).response(from: request, context: context)
        }
    }

    private func viewabilityReport(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        switch Self.reportQuery(request) {
        case .failure(let problem): return .text(.badRequest, problem.reason)
        case .success(var query):
            query.excludeFlagged = policy.excludeFlagged
            return try ViewabilityReportResponse(rows: try await store.viewability.viewabilityReport(query), excludesFlagged: query.excludeFlagged)
                .response(from: request, context: context)
        }
    }

    /// `appid`, `from`, `to` of a report request.
    private static func reportQuery(_ request: Request) -> Result<ReportQuery, PingRejection> {
        let parameters = request.uri.queryParameters
        var query = ReportQuery(appid: parameters.get("appid").flatMap { $0.isEmpty ? nil : $0 })
        for (name, keyPath) in [("from", \ReportQuery.from), ("to", \ReportQuery.to)] {
            guard let raw = parameters.get(name), !raw.isEmpty else { continue }
            guard let seconds = Int64(raw) else { return .failure(PingRejection(reason: "\(name) must be Unix seconds")) }
            query[keyPath: keyPath] = seconds
        }
        return .success(query)
    }
}
