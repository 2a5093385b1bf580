import CensusStore
import Foundation
import Hummingbird
import NIOCore

/// `GET /cgi-bin/gn`: one ping, read and validated where it arrives, stored through the group
/// commit, answered once committed. The route and ``PingIngestHandler`` (the fast path below the
/// router) both come here.
extension CensusServer {
    func receivePing(_ request: Request) async -> Response {
        let query = Substring(request.uri.query ?? "")
        let uri = request.uri.description
        // The response is built here, in the request's own task: the reply comes from the
        // writer's thread (PostgreSQL: its connections' event loop), and only the plain reply
        // crosses back, not a buffer allocated there (the thread sanitizer cannot see Swift's
        // continuations hand over memory written on an event loop: .ci/tsan.supp).
        let reply = await withCheckedContinuation { answered in
            ingestPing(query: query, uri: uri, on: nil) { answered.resume(returning: $0) }
        }
        var response = reply.response
        response.headers[.accessControlAllowOrigin] = "*"   // as on the fast path
        return response
    }

    /// Validates, stores and answers one ping: `reply` is called once, on `eventLoop` when one is
    /// given (the fast path's), after the ping or its refusal is committed. The time from here to
    /// the answer goes to `/metrics`' histogram, from the closures each ping already has.
    func ingestPing(query: Substring, uri: String, on eventLoop: (any EventLoop)?,
                    reply: @escaping @Sendable (CensusReply) -> Void) {
        let received = ContinuousClock.now
        switch PingIntake.read(query: query, uri: uri) {
        case .store(var admitted):
            if let refusal = admit(&admitted) {
                refuse(refusal.reason, .answered(refusal.status), status: refusal.status, uri: uri, on: eventLoop,
                       received: received, reply: reply)
                return
            }
            let ping = admitted
            writer.submit(ping, on: eventLoop) { result in
                switch result {
                case .success(let outcome):
                    let answer = accepted(ping, outcome)
                    metrics.answered(outcome == .stored ? .stored : .duplicate, since: received)
                    reply(answer)
                case .failure(let error):
                    let answer = storageFailed(error)
                    metrics.answered(.failed, since: received)
                    reply(answer)
                }
            }
        case .reject(let rejection):
            refuse(rejection.reason, rejection.category, status: .badRequest, uri: uri, on: eventLoop, received: received, reply: reply)
        case .ampSession(let query):
            Task {
                let answer = await receiveAMPSession(query, uri: uri)
                if let eventLoop { eventLoop.execute { reply(answer) } } else { reply(answer) }
            }
        }
    }

    /// Refuses a ping: counted, recorded when the rejects' budget has room, answered `status`
    /// with `reason` once recorded.
    private func refuse(_ reason: String, _ category: RefusalCategory, status: HTTPResponse.Status, uri: String,
                        on eventLoop: (any EventLoop)?, received: ContinuousClock.Instant,
                        reply: @escaping @Sendable (CensusReply) -> Void) {
        countReject(reason, category: category)
        guard hasRoomForReject(reason, uri: uri) else {
            metrics.answered(.refused, since: received)
            reply(CensusReply(status: status, text: reason))
            return
        }
        writer.submitReject(reason: reason, rawRequest: uri, on: eventLoop) { result in
            if case .failure(let error) = result { rejectNotRecorded(error) }
            metrics.answered(.refused, since: received)
            reply(CensusReply(status: status, text: reason))
        }
    }

    /// Admits a valid ping for storage: its app must be registered when the operator asks for
    /// that (403 otherwise), its seconds are held to its kind's bound (``CreditBounds``), then its
    /// creation time to the window around its receipt (``SenderClock``; its `c61` as sent stays in
    /// the stored query), both as of the census's clock. Returns the refusal, or nil.
    func admit(_ ping: inout IncomingPing) -> (status: HTTPResponse.Status, reason: String)? {
        guard registry.admits(ping.appID) else {
            return (.forbidden, "appid \(ping.appID) is not registered with this census (meter apps set)")
        }
        let now = clock.seconds()
        // Bounded first, on the time as sent: a static page's or app run's bound reads its `c61`
        // against its `c64`, and held to the window that bound would differ (census-decisions.md S42).
        CreditBounds.apply(to: &ping, interval: registry.intervalBound(for: ping.appID, at: now), receivedAt: now)
        ping.createdAt = SenderClock.held(ping.createdAt, receivedAt: now)
        return nil
    }

    /// Counts and publishes a committed ping, and says what became of it.
    func accepted(_ ping: IncomingPing, _ outcome: PingWriter.Outcome) -> CensusReply {
        recordAccepted(ping, outcome)
        feed.publish(.ping(appid: ping.appID, pingID: ping.pingID, pingType: ping.pingType, kind: ping.kind.rawValue,
                           assetid: ping.assetID, seconds: ping.creditedSeconds))
        return .stored(outcome == .stored)
    }

    /// Counts and logs a request the store failed, and asks the sender to retry: what every route
    /// answers a failed write (``CensusError/storageUnavailable(reason:)``).
    func storageFailed(_ error: any Error) -> CensusReply {
        recordStorageFailure(error)
        return CensusError.storageUnavailable(reason: "\(error)").reply
    }
}
