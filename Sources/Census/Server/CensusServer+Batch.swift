import Foundation
import Hummingbird

/// `POST /cgi-bin/gn/batch`: a backlog of pings, one ping query string per line.
extension CensusServer {
    /// The largest batch body accepted.
    public static let maxBatchBytes = 262_144
    /// The most lines accepted in one batch.
    public static let maxBatchLines = 500

    struct BatchRejection: Codable, Sendable {
        let line: Int
        let reason: String
    }

    /// The answer: how many lines were stored, were already stored, or were refused and why.
    struct BatchResponse: ResponseEncodable {
        let stored: Int
        let duplicates: Int
        let rejected: [BatchRejection]
    }

    func receiveBatch(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let body: ByteBuffer
        do {
            body = try await request.body.collect(upTo: Self.maxBatchBytes)
        } catch {
            return await reject("batch body over \(Self.maxBatchBytes) bytes", uri: request.uri.description, status: .contentTooLarge)
        }
        let lines = String(buffer: body).split(separator: "\n", omittingEmptySubsequences: true)
            .map { $0.hasSuffix("\r") ? $0.dropLast() : $0 }
        guard !lines.isEmpty else { return await reject("empty batch", uri: request.uri.description) }
        guard lines.count <= Self.maxBatchLines else {
            return await reject("batch of \(lines.count) lines; the limit is \(Self.maxBatchLines)", uri: request.uri.description,
                                status: .contentTooLarge)
        }
        var valid: [IncomingPing] = []
        var rejected: [BatchRejection] = []
        for (index, line) in lines.enumerated() {
            let query = line.hasPrefix("?") ? line.dropFirst() : line
            switch PingValidator.validate(query: query, uriLength: "/cgi-bin/gn?".utf8.count + query.utf8.count) {
            case .success(let ping): valid.append(ping)
            case .failure(let rejection):
                rejected.append(BatchRejection(line: index + 1, reason: rejection.reason))
                _ = await reject("batch line \(index + 1): \(rejection.reason)", uri: "/cgi-bin/gn?" + query)
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
            await recordStorageFailure(error)
            return .text(.serviceUnavailable, "storage unavailable; retry later")
        }
        let stored = outcomes.filter { $0 == .stored }.count
        await recordAccepted(stored: stored, duplicates: outcomes.count - stored)
        return try BatchResponse(stored: stored, duplicates: outcomes.count - stored, rejected: rejected)
            .response(from: request, context: context)
    }
}
