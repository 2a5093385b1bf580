import CensusStore
import Foundation
import Hummingbird
import MeterWire

/// Google AMP's `nielsen` analytics vendor (docs/protocol.md §2e): the `cloudapi` requests. Its
/// `prd=session` ping comes with the SDK's pings (``CensusIntake/ingestPing(query:uri:on:reply:)``).
struct AMPController {
    let intake: CensusIntake

    /// The route of the cloud-API requests: ``WireRoute/ampEvent(apid:visit:)`` with both as parameters.
    static let route = WireRoute.ampEvent(apid: ":apid", visit: ":visit")

    func addRoutes(to router: Router<BasicRequestContext>) {
        router.get(RouterPath(Self.route)) { request, context in await receiveCloudAPI(request, context) }
    }

    private func receiveCloudAPI(_ request: Request, _ context: BasicRequestContext) async -> Response {
        let uri = request.uri.description
        guard uri.utf8.count <= PingValidator.maxURLBytes + AMPCloudEvent.maxBodyBytes else {
            return await intake.refuse("AMP cloud API: the URL is longer than the census accepts", category: .tooLarge, uri: uri)
                .response
        }
        let parsed = AMPCloudEvent.parse(
            apid: context.parameters.get("apid") ?? "", visit: context.parameters.get("visit") ?? "",
            body: request.uri.queryParameters.get("b"))
        switch parsed {
        case .failure(let rejection): return await intake.refuse(rejection, uri: uri).response
        case .success(let event):
            guard intake.registry.admits(event.appID) else {
                return await intake.refuse("AMP cloud API: appid \(event.appID) is not registered with this census",
                                           status: .forbidden, uri: uri).response
            }
            do {
                switch try await intake.amp.record(event) {
                case .failure(let rejection): return await intake.refuse(rejection, uri: uri).response
                case .success(.stored):
                    intake.events.record(.ampEvent(credited: true))
                    return CensusReply.stored(true).response
                case .success(.duplicate):
                    return CensusReply.stored(false).response
                case .success(.notCredited):
                    // Valid, so not a refusal to record; AMP reads no answer (census-decisions.md AMP5).
                    intake.events.record(.ampEvent(credited: false))
                    return CensusReply(status: .ok, text: "not credited").response
                }
            } catch {
                return intake.storageFailed(error).response
            }
        }
    }
}
