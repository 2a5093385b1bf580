import CensusStore
import Foundation
import Hummingbird
import MeterWire

/// Google AMP's `nielsen` analytics vendor (docs/protocol.md §2e): the `cloudapi` requests and
/// the `prd=session` ping.
extension CensusServer {
    /// The route of the cloud-API requests: ``WireRoute/ampEvent(apid:visit:)`` with both as parameters.
    package static let ampCloudAPIRoute = WireRoute.ampEvent(apid: ":apid", visit: ":visit")

    func receiveAMPCloudAPI(_ request: Request, _ context: BasicRequestContext) async -> Response {
        let uri = request.uri.description
        guard uri.utf8.count <= PingValidator.maxURLBytes + AMPCloudEvent.maxBodyBytes else {
            return await reject("AMP cloud API: the URL is longer than the census accepts", uri: uri, category: .tooLarge)
        }
        let parsed = AMPCloudEvent.parse(
            apid: context.parameters.get("apid") ?? "", visit: context.parameters.get("visit") ?? "",
            body: request.uri.queryParameters.get("b"))
        switch parsed {
        case .failure(let rejection): return await reject(rejection, uri: uri)
        case .success(let event):
            guard registry.admits(event.appID) else {
                return await reject("AMP cloud API: appid \(event.appID) is not registered with this census", uri: uri, status: .forbidden)
            }
            do {
                switch try await ampIngest.record(event) {
                case .failure(let rejection): return await reject(rejection, uri: uri)
                case .success(.stored):
                    counters.update { $0.ampEvents += 1 }
                    return CensusReply.stored(true).response
                case .success(.duplicate):
                    return CensusReply.stored(false).response
                case .success(.notCredited):
                    // Valid, so not a refusal to record; AMP reads no answer (census-decisions.md AMP5).
                    counters.update { $0.ampEventsNotCredited += 1 }
                    return CensusReply(status: .ok, text: "not credited").response
                }
            } catch {
                return storageFailed(error).response
            }
        }
    }

    /// `prd=session`: checked and counted; the cloud-API requests carry the credit.
    func receiveAMPSession(_ query: PingQuery, uri: String) async -> CensusReply {
        switch AMPSessionPing.parse(query) {
        case .failure(let rejection): return await rejectReply(rejection.reason, uri: uri, category: rejection.category)
        case .success:
            counters.update { $0.ampSessions += 1 }
            return CensusReply(status: .ok, text: "session")
        }
    }
}
