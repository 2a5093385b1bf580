import MeasurementCore
import Crypto
import Foundation
import MeterInput
import MeterWire
import NIOConcurrencyHelpers

/// Credits one AMP page view with the engine itself: its cloud-API events, in time order, go
/// through a fresh ``MeterCore`` as the simplified API's `trackEvent` (they are its event format),
/// `data.hidden` as the app going to the background and back, and the pings the core builds are
/// read by the same validator as any SDK's. So AMP time is static time under the static rule, for
/// the appid `P` + apid, the section and the segments (census-decisions.md AMP1–AMP4).
package enum AMPPageViewReplay {
    /// The SDK version the census writes into the pings it builds for AMP (`c16`).
    package static let sdkVersion = "amp.cloudapi"

    /// How often AMP's `nielsen` vendor sends while the page is visible, in seconds.
    package static let timerSeconds: Int64 = 10

    /// The pings for `events` (one page view, any order), the last received by the census at
    /// `receivedAt` (milliseconds since 1970), or why there are none. The last event ends the
    /// page view's credit: its pending seconds go out in a final ping.
    ///
    /// The events' `utc` is the page's word: a page view credits at most one timer period (and
    /// a little slack) per request the census received for it (``pageViewBound(events:)``), as
    /// AMP sends one at least that often while the page is visible; beyond that its seconds are
    /// over bound, as are a ping's beyond its kind's bound (``CreditBounds``).
    ///
    /// Once the pings built credit all the page view may, the replay ends at the event it is at
    /// (census-decisions.md AMP6): every later ping would credit nothing, so none is built. The
    /// pings before are those of a whole replay, ids and credit alike; a page view sent with its
    /// requests half an hour apart costs a few events' work, not days of pings.
    package static func pings(for events: [AMPCloudEvent], receivedAt: Int64 = .max,
                             durationPingInterval: Int64) -> Result<[IncomingPing], PingRejection> {
        whole(events, receivedAt: receivedAt, durationPingInterval: durationPingInterval).map(\.pings)
    }

    /// ``pings(for:receivedAt:durationPingInterval:)``, and the replay's state before its final
    /// `.end` (nil for no events), from which the page view's next request may carry it forward
    /// (``continuing(_:with:receivedAt:durationPingInterval:)``).
    static func whole(_ events: [AMPCloudEvent], receivedAt: Int64 = .max, durationPingInterval: Int64)
        -> Result<(pings: [IncomingPing], state: AMPReplayState?), PingRejection> {
        let ordered = events.sorted { ($0.utcMillis, $0.index) < ($1.utcMillis, $1.index) }
        guard let first = ordered.first, let latest = ordered.last else { return .success(([], nil)) }
        let device = first.deviceInfo
        let appID = first.appID.trimmingCharacters(in: .whitespaces)
        guard MeasuredApp.isValidAppID(appID) else {
            return .failure(PingRejection(
                reason: "AMP cloud API: appid \"\(appID)\" is not a GUID prefixed with P or T (PXXXXXXXX-XXXX-XXXX-XXXX-XXXXXXXXXXXX)"))
        }
        let app = MeasuredApp(
            appID: appID, appName: device["apn"].flatMap { $0.isEmpty ? nil : $0 } ?? "AMP",
            appVersion: device["apv"] ?? "", market: .forSFCode(MarketProfile.defaultSFCode))
        var state = AMPReplayState(app: app, first: first, durationPingInterval: durationPingInterval)
        var credit = PageViewCredit(allowed: pageViewBound(events: events.count), interval: durationPingInterval,
                                    lastReceipt: receivedAt / 1000)
        for event in ordered {
            if case .failure(let rejection) = state.step(event) { return .failure(rejection) }
            for ping in state.validated.dropFirst(credit.pings.count) { credit.take(validated: ping) }
            if credit.isSpent { break }
        }
        switch state.ended() {
        case .failure(let rejection): return .failure(rejection)
        case .success(let all): for ping in all.dropFirst(credit.pings.count) { credit.take(validated: ping) }
        }
        state.events = events.count
        state.latest = AMPReplayState.OrderKey(utc: latest.utcMillis, index: latest.index)
        state.requests = first.utcMillis...latest.utcMillis
        state.written = credit.pings
        return .success((credit.pings, state))
    }

    /// The pings a whole replay of `cached`'s events and `event` builds, carried forward from
    /// `cached` (a state ``whole(_:receivedAt:durationPingInterval:)`` or this returned for the
    /// page view's stored events) at the cost of `event` alone, and the state they leave; nil
    /// when only a whole replay can tell (census-decisions.md AMP8): `event` is not after every
    /// event of `cached` in `utc` order, the interval changed, or the whole replay would end
    /// (AMP6) at an event `cached` did not stop at. The credit is read again over the pings
    /// built (held to the new request count's bound and receipt), without validating them again.
    static func continuing(_ cached: AMPReplayState, with event: AMPCloudEvent, receivedAt: Int64,
                           durationPingInterval: Int64) -> Result<(pings: [IncomingPing], state: AMPReplayState), PingRejection>? {
        let key = AMPReplayState.OrderKey(utc: event.utcMillis, index: event.index)
        guard cached.latest < key, cached.durationPingInterval == durationPingInterval,
              cached.boundaries.count <= cached.events else { return nil }
        var credit = PageViewCredit(allowed: pageViewBound(events: cached.events + 1), interval: durationPingInterval,
                                    lastReceipt: receivedAt / 1000)
        var spentAt: Int?
        for (step, boundary) in cached.boundaries.enumerated() {
            for ping in cached.validated[credit.pings.count..<boundary] { credit.take(validated: ping) }
            if credit.isSpent {
                spentAt = step
                break
            }
        }
        var state = cached
        if let spentAt {
            // The whole replay ends where this one stopped, or earlier: earlier is a state gone.
            guard spentAt == cached.boundaries.count - 1 else { return nil }
        } else {
            // Not spent: the whole replay goes on through events this one never took.
            guard cached.boundaries.count == cached.events else { return nil }
            if case .failure(let rejection) = state.step(event) { return .failure(rejection) }
            for ping in state.validated.dropFirst(credit.pings.count) { credit.take(validated: ping) }
        }
        switch state.ended() {
        case .failure(let rejection): return .failure(rejection)
        case .success(let all): for ping in all.dropFirst(credit.pings.count) { credit.take(validated: ping) }
        }
        state.events += 1
        state.latest = key
        state.requests = min(state.requests.lowerBound, event.utcMillis)...max(state.requests.upperBound, event.utcMillis)
        state.written = credit.pings
        return .success((credit.pings, state))
    }

    /// The most a page view of `events` requests credits.
    static func pageViewBound(events: Int) -> Int64 {
        Int64(events) * (timerSeconds + 2)
    }

    static func hex(_ digest: some Sequence<UInt8>) -> String {
        digest.map { String(format: "%02x", $0) }.joined()
    }
}

extension AMPCloudEvent {
    /// `devInfo` (`apn`, `apv`) as strings.
    var deviceInfo: [String: String] {
        let object = (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any]
        return (object?["devInfo"] as? [String: Any] ?? [:]).compactMapValues { $0 as? String }
    }

    /// The page view's viewing session (`c59`) and the prefix of its pings' ids: a digest of the
    /// page view, so that replays build the same ids and a retry lands on the same rows.
    var pageViewKey: String { AMPReplayedPings.key(ofPageView: pageView) }
}

/// The ids of one page view's replay: session `amp-<digest>`, pings `amp-<digest>-1`, `-2`, …
/// in build order, the same on every replay of the same events.
final class PageViewIdentifiers: Sendable {
    private let key: String
    private let count = NIOLockedValueBox(0)

    init(key: String) { self.key = key }

    /// How many ping ids it issued.
    var issued: Int { count.withLockedValue { $0 } }

    /// Issues the next ids after `issued`: a state carried forward, or a copy of it ended, takes
    /// up its own count (``AMPReplayState``).
    func reset(to issued: Int) { count.withLockedValue { $0 = issued } }

    /// The generators the core takes.
    var generators: CoreIdentifiers {
        CoreIdentifiers(newSessionID: { [key] in key }, newPingID: { [self] in key + "-" + String(count.withLockedValue { $0 += 1; return $0 }) })
    }
}

/// A page view's replay before its final `.end`, carried forward from one request to the next
/// (census-decisions.md AMP8): the engine's state (a value: a copy is a copy), the pings built,
/// each read by the validator once, and which of the page view's events it took.
struct AMPReplayState: Sendable {
    /// An event's place in the replay's order.
    struct OrderKey: Sendable, Comparable {
        var utc: Int64
        var index: Int64
        static func < (a: OrderKey, b: OrderKey) -> Bool { (a.utc, a.index) < (b.utc, b.index) }
    }

    private let app: MeasuredApp
    /// The ids' generator the core holds: a class the copies share, so every use first sets it
    /// to this state's count (one page view is replayed one request at a time, AMP7).
    private let identifiers: PageViewIdentifiers
    private var replay: CoreReplay
    private var issued = 0
    private var hidden = false
    private var last: MeterInstant?
    /// The duration-ping interval the core was built with.
    let durationPingInterval: Int64
    /// The pings built so far, validated, in build order.
    private(set) var validated: [IncomingPing] = []
    /// After each event taken, how many pings were built: where a whole replay checks its credit.
    private(set) var boundaries: [Int] = []
    /// How many of the page view's stored events this state stands for (taken or, past the
    /// credit's end, not).
    var events = 0
    /// The last of them in `utc` order.
    var latest = OrderKey(utc: .min, index: .min)
    /// Their first and last `utc`, milliseconds.
    var requests: ClosedRange<Int64> = 0...0
    /// The pings the replay credited: what its request stored.
    var written: [IncomingPing] = []

    init(app: MeasuredApp, first: AMPCloudEvent, durationPingInterval: Int64) {
        self.app = app
        self.durationPingInterval = durationPingInterval
        let key = first.pageViewKey
        identifiers = PageViewIdentifiers(key: key)
        replay = CoreReplay(MeterCore.Settings(
            app: app, sdkVersion: AMPPageViewReplay.sdkVersion, identifiers: identifiers.generators,
            identity: PingIdentity(optedOut: false, deviceID: AMPPageViewReplay.hex(SHA256.hash(data: Data(first.clientID.utf8)))),
            durationPingInterval: durationPingInterval, checkpointInterval: 60, playheadTick: 0, logLevel: .critical))
    }

    /// Takes `event`, the next in `utc` order, and validates the pings it built.
    mutating func step(_ event: AMPCloudEvent) -> Result<Void, PingRejection> {
        identifiers.reset(to: issued)
        let time = MeterInstant(secondsSince1970: Double(event.utcMillis) / 1000)
        // Silence longer than the 30-minute rule is no evidence of a visible page: it was away.
        if let last, time - last > ForegroundCrediting.maxGap, !hidden {
            replay.handle(.appInBackground, at: last)
            hidden = true
        }
        if event.hidden != hidden {
            replay.handle(event.hidden ? .appInBackground : .appInForeground, at: time)
            hidden = event.hidden
        }
        let object = (try? JSONSerialization.jsonObject(with: Data(event.body.utf8))) as? [String: Any] ?? [:]
        if case .success(let parsed) = TrackedEventParser.parse(object, market: app.market) {
            replay.handle(.track(parsed.event), at: time)
        }
        last = time
        issued = identifiers.issued
        let read = Self.validate(replay.pings, from: validated.count, into: &validated)
        boundaries.append(validated.count)
        return read
    }

    /// Every ping, validated, once the page view ends at the last event taken; this state is
    /// left as it was.
    func ended() -> Result<[IncomingPing], PingRejection> {
        var copy = replay
        var all = validated
        identifiers.reset(to: issued)
        if let last { copy.handle(.end, at: last) }
        return Self.validate(copy.pings, from: all.count, into: &all).map { all }
    }

    private static func validate(_ pings: [Ping], from start: Int, into validated: inout [IncomingPing]) -> Result<Void, PingRejection> {
        for ping in pings.dropFirst(start) {
            switch PageViewCredit.validate(ping) {
            case .success(let incoming): validated.append(incoming)
            case .failure(let rejection): return .failure(rejection)
            }
        }
        return .success(())
    }
}
