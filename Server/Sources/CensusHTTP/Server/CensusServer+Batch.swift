import CensusStore
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
        let lines: [Substring]
        switch BatchFormat.queries(in: body.readableBytesView) {
        case .success(let queries): lines = queries
        case .failure(let problem): return await reject(problem.reason, uri: request.uri.description)
        }
        guard !lines.isEmpty else { return await reject("empty batch", uri: request.uri.description) }
        guard lines.count <= BatchFormat.censusMaxLines else {
            return await reject("batch of \(lines.count) lines; the limit is \(BatchFormat.censusMaxLines)",
                                uri: request.uri.description, status: .contentTooLarge)
        }
        var valid: [IncomingPing] = []
        var rejected: [BatchAnswer.Rejection] = []
        let pingPrefix = WireRoute.ping + "?"
        for (index, query) in lines.enumerated() {
            let reason: String, category: RefusalCategory
            switch PingValidator.validate(query: query, uriLength: pingPrefix.utf8.count + query.utf8.count) {
            case .success(var ping):
                guard let refusal = admit(&ping) else {
                    valid.append(ping)
                    continue
                }
                (reason, category) = (refusal.reason, .answered(refusal.status))
            case .failure(let rejection):
                (reason, category) = (rejection.reason, rejection.category)
            }
            rejected.append(BatchAnswer.Rejection(line: index + 1, reason: reason))
            _ = await reject("batch line \(index + 1): \(reason)", uri: pingPrefix + query, category: category)
        }
        let outcomes: [PingWriter.Outcome]
        do {
            outcomes = try await withThrowingTaskGroup(of: PingWriter.Outcome.self) { group in
                // Concurrent writes land in the same group commit. Each ping is counted once committed,
                // even when another of the batch fails: the counters follow the stored rows.
                for ping in valid {
                    group.addTask {
                        let outcome = try await self.writer.write(ping)
                        self.recordAccepted(ping, outcome)
                        return outcome
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
        } catch {
            return storageFailed(error).response
        }
        let stored = outcomes.filter { $0 == .stored }.count
        return try BatchAnswer(stored: stored, duplicates: outcomes.count - stored, rejected: rejected)
            .response(from: request, context: context)
    }
}
