import CensusStore
import Foundation
import Hummingbird
import MeterWire

/// `POST /cgi-bin/gn/viewability`: the SDK's viewability pings (docs/protocol.md §2g).
struct ViewabilityController {
    let intake: CensusIntake

    func addRoutes(to router: Router<BasicRequestContext>) {
        router.post(RouterPath(WireRoute.viewability)) { request, _ in await receiveViewability(request) }
    }

    private func receiveViewability(_ request: Request) async -> Response {
        let uri = request.uri.description
        guard uri.utf8.count <= PingValidator.maxURLBytes else {
            return await intake.refuse("viewability: URL is \(uri.utf8.count) bytes; the limit is \(PingValidator.maxURLBytes)",
                                       category: .tooLarge, uri: uri).response
        }
        let body: ByteBuffer
        do {
            body = try await request.body.collect(upTo: ViewabilityReport.maxBodyBytes)
        } catch {
            return await intake.refuse("viewability: the body is longer than \(ViewabilityReport.maxBodyBytes) bytes",
                                       status: .contentTooLarge, uri: uri).response
        }
        switch IncomingViewability.parse(query: Substring(request.uri.query ?? ""), body: String(buffer: body)) {
        case .failure(let rejection): return await intake.refuse(rejection, uri: uri).response
        case .success(var ping):
            guard intake.registry.admits(ping.appID) else {
                return await intake.refuse("viewability: appid \(ping.appID) is not registered with this census",
                                           status: .forbidden, uri: uri).response
            }
            let receivedAt = intake.clock.milliseconds(), now = receivedAt / 1000
            ping.bound(interval: intake.registry.intervalBound(for: ping.appID, at: now))
            // Dated as a ping is, within the window around its receipt (census-decisions.md S42).
            ping.createdAt = SenderClock.held(ping.createdAt, receivedAt: now)
            do {
                let isNew = try await intake.store.viewability.insert(ping, receivedAt: receivedAt)
                if isNew { intake.events.record(.viewabilityStored(ping)) }
                return CensusReply.stored(isNew).response
            } catch {
                return intake.storageFailed(error).response
            }
        }
    }
}
