import CensusStore
import Foundation
import Hummingbird
import MeterWire
import NIOFoundationEssentialsCompat

/// `POST /cgi-bin/gn/trace`: SDK call traces from development configurations (docs/protocol.md §2h).
struct TraceController {
    let intake: CensusIntake

    func addRoutes(to router: Router<BasicRequestContext>) {
        router.post(RouterPath(WireRoute.trace)) { request, _ in
            // Pages post their traces too (the browser SDK): any origin may read the answer.
            var response = await receiveTrace(request)
            response.headers[.accessControlAllowOrigin] = "*"
            return response
        }
    }

    private func receiveTrace(_ request: Request) async -> Response {
        let uri = request.uri.description
        let body: ByteBuffer
        do {
            body = try await request.body.collect(upTo: CallTraceBatch.maxBodyBytes)
        } catch {
            return await intake.refuse("trace: the body is longer than \(CallTraceBatch.maxBodyBytes) bytes",
                                       status: .contentTooLarge, uri: uri).response
        }
        // A full budget is answered before the body is decoded: a flood of traces past it then
        // costs the census its bytes, not a JSON decode each (census-decisions S23).
        guard intake.budget.used(in: .traces).saturatingAdd(Int64(body.readableBytes)) <= intake.budget.limits.traceBytes else {
            intake.events.record(.tracesOverBudget)
            return CensusError.traceStorageFull.response
        }
        switch CallTraceBatch.decode(Data(buffer: body)) {
        case .failure(let problem):
            return await intake.refuse(problem.reason, uri: uri).response
        case .success(let batch):
            do {
                let held = try await intake.store.traces.traceEntryCount(session: batch.session, appid: batch.appid)
                let limit = intake.policy.storage.traceEntriesPerSession
                guard held.saturatingAdd(Int64(batch.entries.count)) <= limit else {
                    return await intake.refuse(
                        "trace: session \(batch.session) holds \(held) entries; the census keeps at most \(limit) per session",
                        status: .contentTooLarge, uri: uri).response
                }
                // The body's size bounds what its entries take as stored (re-encoded, keys sorted).
                let bytes = Int64(body.readableBytes) + StorageBudget.rowOverhead * Int64(batch.entries.count)
                guard intake.budget.reserve(bytes, for: batch.appid, in: .traces) else {
                    intake.events.record(.tracesOverBudget)
                    return CensusError.traceStorageFull.response
                }
                let new = try await intake.store.traces.insert(batch, receivedAt: intake.clock.milliseconds())
                intake.events.record(.traceStored(batch, new: new))
                return .text(.ok, "stored \(new) of \(batch.entries.count)")
            } catch {
                return intake.storageFailed(error).response
            }
        }
    }

    /// When a trace refused for a full budget may come back: the next prune frees what is past
    /// its retention.
    static let traceRetryAfterSeconds = 600
}
