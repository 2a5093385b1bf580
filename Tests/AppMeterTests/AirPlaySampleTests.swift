// The AirPlay snippet of the Ireland guide (the same in the Poland page),
// compiled against `NielsenAppApi` and run with a stand-in for AVAudioSession off iOS. The lines
// that build the dictionary and call `updateOTT` are as published (typo fixes marked "typo:").
import AppMeter
import Foundation
import NielsenAppApi
import Testing

#if os(iOS) || os(tvOS)
import AVFAudio
#else
/// Stand-ins for the AVFAudio types the snippet reads (iOS only).
struct AudioSessionPort: Sendable {
    var portType: String
    var portName: String
    var uid: String
}

struct AudioSessionRoute: Sendable {
    var outputs: [AudioSessionPort]
}

final class AVAudioSession: Sendable {
    private static let shared = AVAudioSession()
    private let route = Locked(AudioSessionRoute(outputs: []))
    static func sharedInstance() -> AVAudioSession { shared }
    var currentRoute: AudioSessionRoute {
        get { route.withLock { $0 } }
        set { route.withLock { $0 = newValue } }
    }
}

let AVAudioSessionPortAirPlay = "AirPlay"
#endif

final class AirPlaySampleController {
    var nielsenAppApi: NielsenAppApi?

    func handleRouteChanged(_ notification: Notification) {
        var currentStatus: [String: String] = ["ottStatus": "0"]

        let session = AVAudioSession.sharedInstance()
        let currentRoute = session.currentRoute
        for outputPort in currentRoute.outputs {
            if outputPort.portType == AVAudioSessionPortAirPlay {
                currentStatus["ottStatus"] = "1"
                currentStatus["ottDeviceModel"] = outputPort.portName
                currentStatus["ottDeviceID"] = outputPort.uid

                if outputPort.portName == "AirPlay" {
                    currentStatus["ottDevice"] = "airplay"
                    currentStatus["ottType"] = "airplay"
                } else {
                    if outputPort.portName.contains("Apple TV") {
                        currentStatus["ottDevice"] = "appleTV"
                    } else {
                        currentStatus["ottDevice"] = "other"
                    }

                    if outputPort.uid.hasSuffix("airplay") {
                        currentStatus["ottType"] = "airplay"
                    } else if outputPort.uid.hasSuffix("screen") {
                        currentStatus["ottType"] = "mirroring"
                    } else {
                        currentStatus["ottType"] = "other"
                    }
                }
            }
        }

        // report OTT status update to Nielsen SDK
        self.reportOTTUpdate(currentStatus)
    }

    func reportOTTUpdate(_ ottDict: [String: String]) {
        if let nielsenSdk = self.nielsenAppApi {
            nielsenSdk.updateOTT(ottDict)   // typo: the guide passes `currentStatus`, out of scope here
        }
    }
}

#if !(os(iOS) || os(tvOS))
@Suite(.serialized) struct AirPlaySampleTests {
    /// iOS 11+ mirroring to an Apple TV (the guide's example port), then back to the phone.
    @Test func mirroringToAnAppleTVIsSentAsMirroring() async {
        let meter = MeterHarness()
        let controller = AirPlaySampleController()
        controller.nielsenAppApi = meter.api
        meter.api.loadMetadata(Fixtures.content())
        meter.play(0...10)
        AVAudioSession.sharedInstance().currentRoute = AudioSessionRoute(outputs: [AudioSessionPort(
            portType: "AirPlay", portName: "Apple TV 4K", uid: "4335E8A9-1C0A-4251-9000-28CA5FA2F3CF-192731714653291-screen")])
        controller.handleRouteChanged(Notification(name: Notification.Name("AVAudioSessionRouteChange")))
        meter.play(11...20)
        AVAudioSession.sharedInstance().currentRoute = AudioSessionRoute(outputs: [])
        controller.handleRouteChanged(Notification(name: Notification.Name("AVAudioSessionRouteChange")))
        meter.play(21...30)
        meter.api.end()
        let pings = await meter.pings()
        #expect(pings.map { "\($0.credited) \($0["c71"]!) \($0["c72"]!)" } == [
            "0 ottflg,0 otttyp,", "10 ottflg,0 otttyp,", "10 ottflg,1 otttyp,mirroring", "10 ottflg,0 otttyp,",
        ])
    }
}
#endif
