import AppMeter
import Foundation
import Logging
import NielsenAppApi

/// Drives a `NielsenAppApi` (or, with `simplified`, a `NielsenEventTracker`) instance with a
/// virtual clock and a recording transport.
final class MeterHarness: Sendable {
    let clock = VirtualClock(start: 1_700_000_000)
    let transport: RecordingTransport
    let storage: InMemoryStorage
    /// The object under test.
    let facade: any NielsenMeasuring & Sendable
    /// The standard API (the default).
    var api: NielsenAppApi { facade as! NielsenAppApi }
    /// The simplified API (`simplified: true`).
    var tracker: NielsenEventTracker { facade as! NielsenEventTracker }
    /// Where this instance observes the UIKit lifecycle notifications (its own: posting there
    /// touches no other test's instance).
    let notifications = NotificationCenter()

    /// The identity tests run with: an opted-in device with an ad id and a vendor id.
    static let device = StaticIdentityProvider(
        advertising: AdvertisingIdentity(identifier: "AD-ID-0001", limitsTracking: false),
        vendorID: "VENDOR-0001")

    /// A fresh production appid, so that parallel tests never share the four-instance limit.
    static func newAppID() -> String { "P" + UUID().uuidString }

    static func appInfo(
        sfcode: String = "dcr", appID: String = newAppID(), extra: [String: String] = [:]
    ) -> [String: String] {
        ["appid": appID, "appname": "Harness", "appversion": "1.0", "sfcode": sfcode,
         "nol_collectorURL": "http://127.0.0.1:9"].merging(extra) { $1 }
    }

    init(appInfo: [String: Any] = MeterHarness.appInfo(), delegate: NielsenAppApiDelegate? = nil,
         durationPingInterval: Int64 = 60, storage: InMemoryStorage = InMemoryStorage(),
         identity: DeviceIdentityProvider = MeterHarness.device, flavor: SDKFlavor = .global,
         startTime: Double = 1_700_000_000, transport: RecordingTransport = RecordingTransport(),
         queueBounds: QueueBounds = QueueBounds(),
         log: LogCapture? = nil, measuresAppRun: Bool = false,
         simplified: Bool = false, trackerDelegate: NielsenEventTrackerDelegate? = nil,
         viewability: (any ViewabilityProvider)? = nil,
         census: (any PingTransport)? = nil,
         configure: (RecordingTransport) -> Void = { _ in }) {
        self.storage = storage
        // Instances sharing a storage share its delivery queue, which sends through the transport
        // of the instance that opened it: tests sharing a storage share the transport too.
        self.transport = transport
        clock.set(to: startTime)
        transport.scriptConfig([], then: RecordingTransport.config(interval: durationPingInterval))
        configure(transport)
        let environment = MeterEnvironment(
            clock: clock, transport: census ?? transport, identifiers: SequentialIdentifierSource(),
            durationPingInterval: durationPingInterval,
            storage: storage, identityProvider: identity, defaultFlavor: flavor, queueBounds: queueBounds,
            logHandler: log?.handler, notificationCenter: notifications, measuresAppRun: measuresAppRun,
            viewabilityProvider: viewability)
        facade = simplified
            ? NielsenEventTracker(appInfo: appInfo, delegate: trackerDelegate, environment: environment)!
            : NielsenAppApi(appInfo: appInfo, delegate: delegate, environment: environment)!
    }

    /// One playhead per virtual second for each position.
    func play<S: Sequence>(_ positions: S) where S.Element == Int64 {
        for position in positions {
            clock.advance(by: 1)
            api.playheadPosition(position)
        }
    }

    /// Waits for processing and delivery, moving the virtual clock to each retry that is due, then
    /// returns the pings sent.
    func pings() async -> [DecodedPing] {
        await settle()
        return transport.pings
    }

    /// Waits until every call is processed and every ping delivered or refused, moving the virtual
    /// clock to each retry that is due.
    func settle() async {
        await facade.meter!.flush(advancing: clock)
    }

    /// Waits until every call is processed (delivery may still be under way).
    func processed() async {
        await facade.meter!.waitUntilProcessed()
    }

    /// Sum of `c27` per asset (`content/<id>`, `ad/<id>`).
    func creditedOnTheWire() async -> [String: Int] {
        await pings().reduce(into: [:]) { totals, ping in
            let key = "\(ping.assetClass == "st,a" ? "ad" : "content")/\(ping.assetID)"
            totals[key, default: 0] += ping.credited
        }
    }

    var snapshot: MeterSnapshot { facade.meter!.snapshot }
}

enum Fixtures {
    static func content(_ id: String = "vid345-67483", length: String = "3600") -> [String: String] {
        ["type": "content", "assetid": id, "program": "ProgramName", "title": "Program S3, EP1",
         "length": length, "airdate": "20171020 10:05:00", "isfullepisode": "y", "adloadtype": "2",
         "segB": "ChannelName", "segC": "PlayerName"]
    }

    static func ad(_ type: String, _ id: String) -> [String: String] {
        ["type": type, "assetid": id]
    }

    /// The DTVR guide's metadata: type, channelName, adModel.
    static func dtvr(_ channel: String = "TheGreatBigMovie", adModel: String = "1") -> [String: String] {
        ["type": "content", "channelName": channel, "adModel": adModel]
    }

    /// The second sample tag of the DTVR guide ("Sample ID3 tags"): null PC CID, FD offset 46016.
    static let sampleTag = "www.nielsen.com/X100zdCIGeIlgZnkYj6UvQ==/R8WHe7pEBeqBhu8jTeXydg==/"
        + "AAICoyitYqlxT7n6aZ0oMCGheFi4CXFp46AMUPZz1lMr_M9tr3_cjee1SHqxrOiVerMDLeyn9xzocZSKwi746Re8vNOtpNCAZjYABs_J0R25IHpvOc1HS8QHGgD5TgOJeS6gX100zdCIGeIlgZnkYj6UvVJWFNhSVhTiPE0="
        + "/00000/46016/00"

    /// A Nielsen tag for FD CID `cid` at FD offset `offset` (the sample's payload).
    static func tag(cid: String = "R8WHe7pEBeqBhu8jTeXydg==", offset: Int) -> String {
        sampleTag.replacingOccurrences(of: "R8WHe7pEBeqBhu8jTeXydg==", with: cid)
            .replacingOccurrences(of: "/46016/", with: "/" + String(format: "%05d", offset) + "/")
    }
}
