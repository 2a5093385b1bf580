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
        let ordered = events.sorted { ($0.utcMillis, $0.index) < ($1.utcMillis, $1.index) }
        guard let first = ordered.first else { return .success([]) }
        let device = first.deviceInfo
        let appID = first.appID.trimmingCharacters(in: .whitespaces)
        guard MeasuredApp.isValidAppID(appID) else {
            return .failure(PingRejection(
                reason: "AMP cloud API: appid \"\(appID)\" is not a GUID prefixed with P or T (PXXXXXXXX-XXXX-XXXX-XXXX-XXXXXXXXXXXX)"))
        }
        let app = MeasuredApp(
            appID: appID, appName: device["apn"].flatMap { $0.isEmpty ? nil : $0 } ?? "AMP",
            appVersion: device["apv"] ?? "", market: .forSFCode(MarketProfile.defaultSFCode))
        let key = first.pageViewKey
        var replay = CoreReplay(MeterCore.Settings(
            app: app, sdkVersion: sdkVersion, identifiers: PageViewIdentifiers(key: key).generators,
            identity: PingIdentity(optedOut: false, deviceID: hex(SHA256.hash(data: Data(first.clientID.utf8)))),
            durationPingInterval: durationPingInterval, checkpointInterval: 60, playheadTick: 0, logLevel: .critical))
        var credit = PageViewCredit(allowed: pageViewBound(events: events.count), interval: durationPingInterval,
                                    lastReceipt: receivedAt / 1000)

        var hidden = false
        var last: MeterInstant?
        for event in ordered {
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
            if case .failure(let rejection) = credit.take(replay.pings) { return .failure(rejection) }
            if credit.isSpent { break }
        }
        if let last { replay.handle(.end, at: last) }
        if case .failure(let rejection) = credit.take(replay.pings) { return .failure(rejection) }
        return .success(credit.pings)
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
    var pageViewKey: String {
        "amp-" + AMPPageViewReplay.hex(SHA256.hash(data: Data(pageView.utf8)).prefix(12))
    }
}

/// The ids of one page view's replay: session `amp-<digest>`, pings `amp-<digest>-1`, `-2`, …
/// in build order, the same on every replay of the same events.
final class PageViewIdentifiers: Sendable {
    private let key: String
    private let count = NIOLockedValueBox(0)

    init(key: String) { self.key = key }

    /// The generators the core takes.
    var generators: CoreIdentifiers {
        CoreIdentifiers(newSessionID: { [key] in key }, newPingID: { [self] in key + "-" + String(count.withLockedValue { $0 += 1; return $0 }) })
    }
}
