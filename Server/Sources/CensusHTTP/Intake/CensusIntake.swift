package import CensusStore
import Foundation
import Hummingbird
import MeterWire
package import NIOCore

/// What every route that takes data shares: the store and its group-commit writer, who may send
/// (``AppRegistry``), what refusals and traces may take (``StorageBudget``), the operator's policy,
/// and the one sink every outcome is told to (``CensusEvents``). The routes themselves are the
/// controllers in `Routes/`; the ping fast path (``PingIngestHandler``) calls ``ingestPing(query:uri:on:reply:)``.
package struct CensusIntake: Sendable {
    /// Where pings are stored.
    package let store: PingStore
    /// The group-commit writer in front of the store.
    package let writer: PingWriter
    /// Where each outcome is told.
    package let events: CensusEvents
    /// The apps with settings, for the ping path's bounds and admission.
    package let registry: AppRegistry
    /// The bytes rejects and traces take against their quotas.
    package let budget: StorageBudget
    /// What the operator decided the census takes and keeps.
    package let policy: CensusPolicy
    /// Google AMP's page views, replayed one at a time each.
    let amp: AMPIngest

    package init(store: PingStore, policy: CensusPolicy, events: CensusEvents) {
        self.store = store
        self.writer = PingWriter(store: store)
        self.events = events
        self.registry = AppRegistry(registeredOnly: policy.registeredAppsOnly)
        self.budget = StorageBudget(limits: policy.storage)
        self.policy = policy
        self.amp = AMPIngest(store: store)
    }

    /// The census's clock: its store's (``PingStore/clock``).
    package var clock: any CensusClock { store.clock }

    /// Validates, stores and answers one ping: `reply` is called once, on `eventLoop` when one is
    /// given (the fast path's), after the ping or its refusal is committed. The time from here to
    /// the answer goes to `/metrics`' histogram, from the closures each ping already has.
    package func ingestPing(query: Substring, uri: String, on eventLoop: (any EventLoop)?,
                            reply: @escaping @Sendable (CensusReply) -> Void) {
        let received = ContinuousClock.now
        let metrics = events.metrics
        switch PingIntake.read(query: query, uri: uri) {
        case .store(var admitted):
            if let refusal = admit(&admitted) {
                refuse(refusal.reason, category: .answered(refusal.status), status: refusal.status, uri: uri, on: eventLoop) {
                    metrics.answered(.refused, since: received)
                    reply($0)
                }
                return
            }
            let ping = admitted
            writer.submit(ping, on: eventLoop) { result in
                switch result {
                case .success(let outcome):
                    events.record(.pingCommitted(ping, outcome))
                    metrics.answered(outcome == .stored ? .stored : .duplicate, since: received)
                    reply(.stored(outcome == .stored))
                case .failure(let error):
                    let answer = storageFailed(error)
                    metrics.answered(.failed, since: received)
                    reply(answer)
                }
            }
        case .reject(let rejection):
            refuse(rejection.reason, category: rejection.category, uri: uri, on: eventLoop) {
                metrics.answered(.refused, since: received)
                reply($0)
            }
        case .ampSession(let query):
            Task {
                let answer = await receiveAMPSession(query, uri: uri)
                if let eventLoop { eventLoop.execute { reply(answer) } } else { reply(answer) }
            }
        }
    }

    /// `prd=session`: checked and counted; the cloud-API requests carry the credit.
    func receiveAMPSession(_ query: PingQuery, uri: String) async -> CensusReply {
        switch AMPSessionPing.parse(query) {
        case .failure(let rejection): return await refuse(rejection, uri: uri)
        case .success:
            events.record(.ampSession)
            return CensusReply(status: .ok, text: "session")
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

    /// Tells the sink of a request the store failed, and asks the sender to retry: what every route
    /// answers a failed write (``CensusError/storageUnavailable(reason:)``).
    func storageFailed(_ error: any Error) -> CensusReply {
        events.record(.storageFailed(error))
        // A write that went unanswered, or whose commit went unconfirmed, says it may have been
        // stored (census-decisions.md S47, S48).
        if let error = error as? CensusError, error.mayHaveStored { return error.reply }
        return CensusError.storageUnavailable(reason: "\(error)").reply
    }
}
