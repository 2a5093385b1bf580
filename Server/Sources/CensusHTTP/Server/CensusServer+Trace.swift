import CensusStore
import Foundation
import Hummingbird
import MeterWire

/// `POST /cgi-bin/gn/trace`: SDK call traces from development configurations (docs/protocol.md §2h).
extension CensusServer {
    func receiveTrace(_ request: Request) async -> Response {
        let uri = request.uri.description
        let body: ByteBuffer
        do {
            body = try await request.body.collect(upTo: CallTraceBatch.maxBodyBytes)
        } catch {
            return await reject("trace: the body is longer than \(CallTraceBatch.maxBodyBytes) bytes", uri: uri,
                                status: .contentTooLarge)
        }
        // A full budget is answered before the body is decoded: a flood of traces past it then
        // costs the census its bytes, not a JSON decode each (census-decisions S23).
        guard budget.used(in: .traces).saturatingAdd(Int64(body.readableBytes)) <= budget.limits.traceBytes else {
            counters.update { $0.tracesOverBudget += 1 }
            return CensusError.traceStorageFull.response
        }
        switch CallTraceBatch.decode(Data(buffer: body)) {
        case .failure(let problem):
            return await reject(problem.reason, uri: uri)
        case .success(let batch):
            do {
                let held = try await store.traces.traceEntryCount(session: batch.session, appid: batch.appid)
                let limit = policy.storage.traceEntriesPerSession
                guard held.saturatingAdd(Int64(batch.entries.count)) <= limit else {
                    return await reject("trace: session \(batch.session) holds \(held) entries; the census keeps at most \(limit) per session",
                                        uri: uri, status: .contentTooLarge)
                }
                // The body's size bounds what its entries take as stored (re-encoded, keys sorted).
                let bytes = Int64(body.readableBytes) + StorageBudget.rowOverhead * Int64(batch.entries.count)
                guard budget.reserve(bytes, for: batch.appid, in: .traces) else {
                    counters.update { $0.tracesOverBudget += 1 }
                    return CensusError.traceStorageFull.response
                }
                let new = try await store.traces.insert(batch, receivedAt: clock.milliseconds())
                counters.update { $0.traceEntries += new }
                feed.publish(.calls(session: batch.session, appid: batch.appid,
                                    calls: batch.entries.map { TraceWalk.describe($0) }))
                return .text(.ok, "stored \(new) of \(batch.entries.count)")
            } catch {
                return storageFailed(error).response
            }
        }
    }

    /// When a trace refused for a full budget may come back: the next prune frees what is past
    /// its retention.
    static let traceRetryAfterSeconds = 600
}
