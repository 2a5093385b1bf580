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
        switch CallTraceBatch.decode(Data(buffer: body)) {
        case .failure(let problem):
            return await reject(problem.reason, uri: uri)
        case .success(let batch):
            do {
                let new = try await store.insert(batch, receivedAt: Int64(Date.now.timeIntervalSince1970 * 1000))
                counters.update { $0.traceEntries += new }
                feed.publish(.calls(session: batch.session, appid: batch.appid,
                                    calls: batch.entries.map { TraceWalk.describe($0) }))
                return .text(.ok, "stored \(new) of \(batch.entries.count)")
            } catch {
                recordStorageFailure(error)
                return .text(.serviceUnavailable, "storage unavailable; retry later")
            }
        }
    }
}
