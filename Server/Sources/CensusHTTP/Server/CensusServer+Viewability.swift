import CensusStore
import Foundation
import Hummingbird
import MeterWire

/// `POST /cgi-bin/gn/viewability`: the SDK's viewability pings (docs/protocol.md §2g).
extension CensusServer {
    func receiveViewability(_ request: Request) async -> Response {
        let uri = request.uri.description
        guard uri.utf8.count <= PingValidator.maxURLBytes else {
            return await reject("viewability: URL is \(uri.utf8.count) bytes; the limit is \(PingValidator.maxURLBytes)", uri: uri,
                                category: .tooLarge)
        }
        let body: ByteBuffer
        do {
            body = try await request.body.collect(upTo: ViewabilityReport.maxBodyBytes)
        } catch {
            return await reject("viewability: the body is longer than \(ViewabilityReport.maxBodyBytes) bytes", uri: uri,
                                status: .contentTooLarge)
        }
        switch IncomingViewability.parse(query: Substring(request.uri.query ?? ""), body: String(buffer: body)) {
        case .failure(let rejection): return await reject(rejection, uri: uri)
        case .success(var ping):
            guard registry.admits(ping.appID) else {
                return await reject("viewability: appid \(ping.appID) is not registered with this census", uri: uri, status: .forbidden)
            }
            let receivedAt = clock.milliseconds(), now = receivedAt / 1000
            ping.bound(interval: registry.intervalBound(for: ping.appID, at: now))
            // Dated as a ping is, within the window around its receipt (census-decisions.md S42).
            ping.createdAt = SenderClock.held(ping.createdAt, receivedAt: now)
            do {
                let isNew = try await store.viewability.insert(ping, receivedAt: receivedAt)
                if isNew {
                    counters.update { $0.viewabilityPings += 1 }
                    metrics.stored(ping)
                }
                return CensusReply.stored(isNew).response
            } catch {
                return storageFailed(error).response
            }
        }
    }
}
