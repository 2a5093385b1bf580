// the DTVR guide, "Examples of extracting ID3 tags from the iOS Native Player" (Swift), compiled
// against the `NielsenAppApi` product in Swift 5 language mode, as the app that published it is
// (Swift 6's strict concurrency rejects its `DispatchQueue.global().async` capture whatever the
// SDK). AVFoundation types are minimal stand-ins. The sample tests
// the owner string through `AnyObject` (`extraString.range(of:).length`), which needs the
// Objective-C runtime: on Apple platforms that line is compiled as published, on Linux it is the one
// line adapted (marked "linux:"). Every call into the SDK is as published.
import AppMeter
import Dispatch
import Foundation
import NielsenAppApi
import Testing

/// Stand-ins for the AVFoundation types the sample uses.
struct AVMetadataExtraAttributeKey: Hashable {
    let rawValue: String
    init(rawValue: String) { self.rawValue = rawValue }
}

final class AVMetadataItem {
    let extraAttributes: [AVMetadataExtraAttributeKey: Any]?
    let key: Any?
    init(owner: String) {
        extraAttributes = [AVMetadataExtraAttributeKey(rawValue: "info"): owner]
        key = "PRIV"
    }
}

final class DTVRPlayerViewController: NielsenAppApiDelegate {
    var nielsenApi: NielsenAppApi?

    func handleTimedMetadata(metadataItem: AVMetadataItem) {
        guard let extraAttributeType = metadataItem.extraAttributes else {
            return
        }
        let info : AVMetadataExtraAttributeKey = AVMetadataExtraAttributeKey(rawValue: "info")
        let extraString = extraAttributeType[info] as AnyObject
        let key = metadataItem.key as! String

        //If tag starts with "www.nielsen.com", then only sending to SDK
        #if canImport(ObjectiveC)
        let isNielsen = extraString.range(of: "www.nielsen.com").length > 0
        #else
        let isNielsen = (extraString as! String).range(of: "www.nielsen.com") != nil   // linux: no AnyObject lookup
        #endif
        if key == "PRIV" && isNielsen {

            DispatchQueue.global(qos: .default).async { () -> Void in
                self.nielsenApi?.sendID3(extraString as! String)
            }
        }
    }
}

/// Accepts every request and keeps the ping URLs.
final class AcceptingTransport: PingTransport, @unchecked Sendable {
    private let lock = NSLock()
    private var urls: [String] = []
    func send(_ request: TransportRequest) async -> TransportOutcome {
        if request.url.path.hasSuffix("/cgi-bin/cfg") {
            return .response(status: 200, retryAfter: nil, body: Data(#"{"enabled": true, "durationPingInterval": 60}"#.utf8))
        }
        // A batch's pings are its lines.
        let sent = request.url.path.hasSuffix("/batch")
            ? String(decoding: request.body ?? Data(), as: UTF8.self).split(separator: "\n").map(String.init)
            : [request.url.absoluteString]
        lock.withLock { urls.append(contentsOf: sent) }
        return .response(status: 200, retryAfter: nil, body: Data())
    }
    var pings: [String] { lock.withLock { urls } }
}

@Suite struct DTVRSampleCodeTests {
    static let owner = "www.nielsen.com/X100zdCIGeIlgZnkYj6UvQ==/R8WHe7pEBeqBhu8jTeXydg==/"
        + "AAICoyitYqlxT7n6aZ0oMCGheFi4CXFp46AMUPZz1lMr_M9tr3_cjee1SHqxrOiVerMDLeyn9xzocZSKwi746Re8vNOtpNCAZjYABs_J0R25IHpvOc1HS8QHGgD5TgOJeS6gX100zdCIGeIlgZnkYj6UvVJWFNhSVhTiPE0="

    @Test func theGuidesTimedMetadataHandlerFeedsTheSDK() async {
        let clock = VirtualClock()
        let transport = AcceptingTransport()
        let environment = MeterEnvironment(clock: clock, transport: transport, storage: InMemoryStorage(),
                                           measuresAppRun: false)
        let api = NielsenAppApi(appInfo: ["appid": "P" + UUID().uuidString, "nol_collectorURL": "http://127.0.0.1:9"],
                                delegate: nil, environment: environment)!
        let controller = DTVRPlayerViewController()
        controller.nielsenApi = api
        api.play(["channelName": "TheGreatBigMovie"])
        api.loadMetadata(["adModel": "1", "type": "content"])    // the guide's loadDtvr
        for offset in stride(from: 46_016, through: 46_046, by: 10) {
            clock.advance(by: 10)
            controller.handleTimedMetadata(metadataItem: AVMetadataItem(owner: Self.owner + "/00000/\(offset)/00"))
            // The sample hands each tag over on a global queue: wait until this one is taken.
            let before = api.meter!.snapshot.pingsBuilt
            for _ in 0..<1_000 where offset == 46_016 && api.meter!.snapshot.pingsBuilt == before {
                await api.meter!.waitUntilProcessed()
                await Task.yield()
            }
            for _ in 0..<1_000 where offset > 46_016 && (api.meter!.snapshot.creditedSeconds.values.first ?? 0) < Int64(offset - 46_016) {
                await api.meter!.waitUntilProcessed()
                await Task.yield()
            }
        }
        controller.handleTimedMetadata(metadataItem: AVMetadataItem(owner: "com.apple.streaming.transportStreamTimestamp"))
        api.end()
        await api.meter!.flush(advancing: clock)
        #expect(api.meter!.snapshot.creditedSeconds == [AssetKey(.dtvr, "R8WHe7pEBeqBhu8jTeXydg=="): 30])
        // The view, and the final ping with 30 s; and a tag ping per distinct tag (four).
        #expect(transport.pings.filter { !$0.contains("at=id3") }.count == 2)
        #expect(transport.pings.filter { $0.contains("at=id3") }.count == 4)
    }
}
