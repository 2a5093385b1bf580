import CensusStore
import Foundation
import Hummingbird
import MeterWire

/// The SDK's own routes: `GET /cgi-bin/gn` (one ping, when the fast path below the router did not
/// take it), `POST /cgi-bin/gn/batch` (a backlog, one ping query string per line) and the config
/// handshake.
struct PingController {
    let intake: CensusIntake

    func addRoutes(to router: Router<BasicRequestContext>) {
        router.get(RouterPath(WireRoute.ping)) { request, _ in await receivePing(request) }
        router.post(RouterPath(WireRoute.batch)) { request, context in try await receiveBatch(request, context) }
        router.get(RouterPath(WireRoute.config)) { request, context in await config(request, context) }
    }

    private func receivePing(_ request: Request) async -> Response {
        let query = Substring(request.uri.query ?? "")
        let uri = request.uri.description
        // The response is built here, in the request's own task: the reply comes from the
        // writer's thread (PostgreSQL: its connections' event loop), and only the plain reply
        // crosses back, not a buffer allocated there (the thread sanitizer cannot see Swift's
        // continuations hand over memory written on an event loop: .ci/tsan.supp).
        let reply = await withCheckedContinuation { answered in
            intake.ingestPing(query: query, uri: uri, on: nil) { answered.resume(returning: $0) }
        }
        var response = reply.response
        response.headers[.accessControlAllowOrigin] = "*"   // as on the fast path
        return response
    }

    private func receiveBatch(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let uri = request.uri.description
        let body: ByteBuffer
        do {
            body = try await request.body.collect(upTo: BatchFormat.censusMaxBytes)
        } catch {
            return await intake.refuse("batch body over \(BatchFormat.censusMaxBytes) bytes", status: .contentTooLarge, uri: uri).response
        }
        let lines: [Substring]
        switch BatchFormat.queries(in: body.readableBytesView) {
        case .success(let queries): lines = queries
        case .failure(let problem): return await intake.refuse(problem.reason, uri: uri).response
        }
        guard !lines.isEmpty else { return await intake.refuse("empty batch", uri: uri).response }
        guard lines.count <= BatchFormat.censusMaxLines else {
            return await intake.refuse("batch of \(lines.count) lines; the limit is \(BatchFormat.censusMaxLines)",
                                       status: .contentTooLarge, uri: uri).response
        }
        var valid: [IncomingPing] = []
        var rejected: [BatchAnswer.Rejection] = []
        let pingPrefix = WireRoute.ping + "?"
        for (index, query) in lines.enumerated() {
            let reason: String, category: RefusalCategory
            switch PingValidator.validate(query: query, uriLength: pingPrefix.utf8.count + query.utf8.count) {
            case .success(var ping):
                guard let refusal = intake.admit(&ping) else {
                    valid.append(ping)
                    continue
                }
                (reason, category) = (refusal.reason, .answered(refusal.status))
            case .failure(let rejection):
                (reason, category) = (rejection.reason, rejection.category)
            }
            rejected.append(BatchAnswer.Rejection(line: index + 1, reason: reason))
            _ = await intake.refuse("batch line \(index + 1): \(reason)", category: category, uri: pingPrefix + query)
        }
        let outcomes: [PingWriter.Outcome]
        do {
            outcomes = try await withThrowingTaskGroup(of: PingWriter.Outcome.self) { group in
                // Concurrent writes land in the same group commit. Each ping is counted once committed,
                // even when another of the batch fails: the counters follow the stored rows.
                for ping in valid {
                    group.addTask {
                        let outcome = try await intake.writer.write(ping)
                        intake.events.record(.pingCommitted(ping, outcome))
                        return outcome
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
        } catch {
            return intake.storageFailed(error).response
        }
        let stored = outcomes.filter { $0 == .stored }.count
        return try BatchAnswer(stored: stored, duplicates: outcomes.count - stored, rejected: rejected)
            .response(from: request, context: context)
    }

    private func config(_ request: Request, _ context: BasicRequestContext) async -> Response {
        let apid = request.uri.queryParameters.get(ConfigRequestField.appID.rawValue) ?? ""
        guard !apid.isEmpty, apid.count <= ConfigRequestField.maxAppIDLength else {
            return await intake.refuse("config request without a valid apid", uri: request.uri.description).response
        }
        do {
            var settings = try await intake.store.apps.settings(for: apid)
            // An app the census would refuse is told not to measure, rather than to send pings in vain.
            if !intake.registry.admits(apid) { settings.enabled = false }
            intake.events.record(.configAnswered)
            return try ConfigAnswer(appid: apid, enabled: settings.enabled, durationPingInterval: settings.durationPingInterval)
                .response(from: request, context: context)
        } catch {
            return CensusError.configUnavailable.response
        }
    }
}
