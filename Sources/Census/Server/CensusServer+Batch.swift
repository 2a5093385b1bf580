import Foundation
import Hummingbird
import MeterWire

/// `POST /cgi-bin/gn/batch`: a backlog of pings, one ping query string per line.
extension CensusServer {

    func receiveBatch(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let body: ByteBuffer
        do {
            body = try await request.body.collect(upTo: BatchFormat.censusMaxBytes)
        } catch {
            return await reject("batch body over \(BatchFormat.censusMaxBytes) bytes", uri: request.uri.description,
                                status: .contentTooLarge)
        }
        let lines = BatchFormat.queries(in: String(buffer: body))
        guard !lines.isEmpty else { return await reject("empty batch", uri: request.uri.description) }
        guard lines.count <= BatchFormat.censusMaxLines else {
            return await reject("batch of \(lines.count) lines; the limit is \(BatchFormat.censusMaxLines)",
                                uri: request.uri.description, status: .contentTooLarge)
        }
        var valid: [IncomingPing] = []
        var rejected: [BatchAnswer.Rejection] = []
        let pingPrefix = WireRoute.ping + "?"
        for (index, query) in lines.enumerated() {
            switch PingValidator.validate(query: query, uriLength: pingPrefix.utf8.count + query.utf8.count) {
            case .success(let ping): valid.append(ping)
            case .failure(let rejection):
                rejected.append(BatchAnswer.Rejection(line: index + 1, reason: rejection.reason))
                _ = await reject("batch line \(index + 1): \(rejection.reason)", uri: pingPrefix + query)
            }
        }
        let outcomes: [PingWriter.Outcome]
        do {
            outcomes = try await withThrowingTaskGroup(of: PingWriter.Outcome.self) { group in
                // Concurrent writes land in the same group commit.
                for ping in valid { group.addTask { try await self.writer.write(ping) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
        } catch {
            recordStorageFailure(error)
            return .text(.serviceUnavailable, "storage unavailable; retry later")
        }
        let stored = outcomes.filter { $0 == .stored }.count
        recordAccepted(stored: stored, duplicates: outcomes.count - stored)
        return try BatchAnswer(stored: stored, duplicates: outcomes.count - stored, rejected: rejected)
            .response(from: request, context: context)
    }
}
