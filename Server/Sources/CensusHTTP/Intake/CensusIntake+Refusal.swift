import CensusStore
import Hummingbird
import NIOCore

/// The one way a request is refused, whichever route refuses it: told to the sink, recorded when
/// the rejects' budget has room, answered `status` with the reason once recorded.
extension CensusIntake {
    /// Refuses a request; `reply` is called once, on `eventLoop` when one is given (the fast path's).
    /// Its category for `/metrics` is `category`, else the one `status` says (``RefusalCategory/answered(_:)``).
    /// The answer is the same whether or not it was recorded: a refused request must not be
    /// retried, and a 503 would ask for that.
    func refuse(_ reason: String, category: RefusalCategory? = nil, status: HTTPResponse.Status = .badRequest, uri: String,
                on eventLoop: (any EventLoop)?, reply: @escaping @Sendable (CensusReply) -> Void) {
        events.record(.refused(reason: reason, category: category ?? .answered(status)))
        let answer = CensusReply(status: status, text: reason)
        guard hasRoomForRefusal(reason, uri: uri) else { return reply(answer) }
        let events = self.events
        writer.submitReject(reason: reason, rawRequest: uri, on: eventLoop) { result in
            if case .failure(let error) = result { events.record(.refusalNotRecorded(error)) }
            reply(answer)
        }
    }

    /// ``refuse(_:category:status:uri:on:reply:)``, answered once recorded.
    func refuse(_ reason: String, category: RefusalCategory? = nil, status: HTTPResponse.Status = .badRequest,
                uri: String) async -> CensusReply {
        await withCheckedContinuation { answered in
            refuse(reason, category: category, status: status, uri: uri, on: nil) { answered.resume(returning: $0) }
        }
    }

    /// Refuses a request with a rejection's reason and category.
    func refuse(_ rejection: PingRejection, uri: String) async -> CensusReply {
        await refuse(rejection.reason, category: rejection.category, uri: uri)
    }

    /// Whether the rejects' budget has room to record this refusal (its app's quota and the
    /// budget for all); told to the sink when not.
    private func hasRoomForRefusal(_ reason: String, uri: String) -> Bool {
        let bytes = StorageBudget.bytes(
            ofReject: String(reason.prefix(StorageBudget.maxReasonCharacters)), String(uri.prefix(PingValidator.maxURLBytes)))
        guard budget.reserve(bytes, for: StorageBudget.appid(ofRequest: uri), in: .rejects) else {
            events.record(.refusalOverBudget)
            return false
        }
        return true
    }
}
