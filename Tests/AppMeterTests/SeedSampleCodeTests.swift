// The Swift sample code of the integration guides (docs/conformance.md lists them by title), compiled against the
// `NielsenAppApi` product. UIKit/AVFoundation types are replaced by minimal stand-ins so the file
// builds on Linux; the lines that touch NielsenAppApi are as published, with only obvious typos
// fixed (each marked "typo:").
import Foundation
import AppMeter
import NielsenAppApi
import Testing

// the Ireland guide, "NielsenInit.swift"
class NielsenInit: NSObject {
    class func createNielsenAppApi(delegate: NielsenAppApiDelegate) -> NielsenAppApi? {
        let appInformation: [String: String] = [
            "appid": "PXXXXXXX-XXXX-XXXX-XXXX-XXXXXXXXXXXX",
            "appversion": "1.0",
            "appname": "app name here",
            "sfcode": "ire",
            "nol_devDebug": "DEBUG",
        ]
        return NielsenAppApi(appInfo: appInformation, delegate: delegate)
    }

    // the Italy video page: published as createNielsenApi but called as createNielsenAppApi (typo: name).
    class func createItalyNielsenAppApi(delegate: NielsenAppApiDelegate) -> NielsenAppApi? {
        let appInformation: [String: String] = [
            "appid": "PDA7D5EE6-B1B8-4123-9277-2A788XXXXXXX",
            "appversion": "1.0.2",
            "appname": "Nielsen Sample App",
            "sfcode": "it",
            "nol_devDebug": "DEBUG",
        ]
        return NielsenAppApi(appInfo: appInformation, delegate: delegate)
    }
}

/// Stand-in for UIViewController.
class SampleViewControllerBase {
    func viewDidLoad() {}
}

// "Sample code using AVPlayer. ViewController.swift"
class ViewController: SampleViewControllerBase, NielsenAppApiDelegate {
    var nielsenAppApi: NielsenAppApi!

    override func viewDidLoad() {
        super.viewDidLoad()
        self.nielsenAppApi = NielsenInit.createNielsenAppApi(delegate: self)
        NSLog("Nielsen SDK initialized")
    }

    // "Create Content Metadata" / "MetadataExample" (typo: missing comma after airdate).
    let channelInfo = [
        "channelName": "My Channel Name 1",
    ]
    let contentMetadata = [
        "type": "content",
        "assetid": "88675545",
        "title": "Program S3, EP1",
        "isfullepisode": "y",
        "adloadtype": "2",
        "program": "Program Name",
        "length": "3600",
        "airdate": "20171020 10:05:00",
        "segB": "ChannelName",  // optional
        "segC": "PlayerName",  // optional
    ]
    let adMetadata = [
        "type": "preroll",
        "assetid": "ad123",
    ]

    // "Start the Measurement": play, loadMetadata, playheadPosition, stop, end.
    func startTheMeasurement(pos: Int64, metadataDict: [String: String]) {
        self.nielsenAppApi?.play(channelInfo);
        self.nielsenAppApi?.loadMetadata(metadataDict)
        self.nielsenAppApi?.playheadPosition(pos);
        self.nielsenAppApi?.stop()  // typo: published as `stop;`
        self.nielsenAppApi?.end()  // typo: published as `end`
    }

    // the Italy video page: the periodic time observer body.
    func periodicTimeObserver(time: Float64) {
        let pos = Int64(time);
        NSLog("New Elapse Time = \(time)");
        self.nielsenAppApi?.playheadPosition(pos);
    }

    // the Italy video page / the Poland page "Overview of SDK API Calls".
    func overviewOfCalls(nielsenApi: NielsenAppApi?, secondsAsInt: Int64) {
        nielsenAppApi?.play();
        nielsenApi?.play(channelInfo);
        nielsenApi?.loadMetadata(contentMetadata)
        nielsenApi?.playheadPosition(secondsAsInt)
        nielsenApi?.stop()
        nielsenApi?.end()
    }
}

// the simplified guide, "Sample code for No Ad Framework Build" (WKWebView replaced by a
// stand-in; typo: `userOptOut(url).` has a stray period).
class OptOutVC: SampleViewControllerBase, NielsenAppApiDelegate {
    var nielsenApi: NielsenAppApi!
    var loaded: URL?
    var closed = false

    override func viewDidLoad() {
        super.viewDidLoad()
        if let appApi = self.nielsenApi {
            //Getting the optPut URL from SDK
            if let url = URL(string: appApi.optOutURL) {
                loaded = url
            }
        }
    }

    func closeOptOutView() { closed = true }

    /// The body of `webView(_:decidePolicyFor:decisionHandler:)`, returning whether to allow.
    func decidePolicy(for absoluteString: String?) -> Bool {
        if absoluteString == "nielsen://close" {
            closeOptOutView()
            return false
        } else {
            if let url = absoluteString, url.hasPrefix("nielsen") {
                nielsenApi?.userOptOut(url) //either nielsenappsdk://1 or nielsenappsdk://0
                return false
            }
            return true
        }
    }
}

// the simplified guide / the Ireland guide: "Retrieve current Opt-Out preference"
// and the NoID call right after initialisation (typo: published on the type, `NielsenAppApi?.`).
func noIDSample(nielsenAppApi: NielsenAppApi?) -> Bool {
    nielsenAppApi?.userOptOut("nielsenappsdk://1"); // User opt-out
    return nielsenAppApi?.optOutStatus ?? false
}

@Suite struct SeedSampleCodeTests {
    @Test func optOutSampleWorksAgainstThePackage() {
        let controller = OptOutVC()
        controller.nielsenApi = NielsenAppApi(
            appInfo: MeterHarness.appInfo(extra: ["nol_sdkFlavor": "noAdFramework"]), delegate: controller,
            environment: MeterEnvironment(storage: InMemoryStorage()))
        controller.viewDidLoad()
        #expect(controller.loaded?.absoluteString.hasSuffix("optout_legacy.html") == true)
        #expect(controller.decidePolicy(for: "https://priv-policy.imrworldwide.com/x") == true)
        #expect(controller.decidePolicy(for: "nielsenappsdk://1") == false)
        #expect(controller.nielsenApi.optOutStatus)
        #expect(controller.decidePolicy(for: kNielsenWebClose) == false)
        #expect(controller.closed)
        #expect(noIDSample(nielsenAppApi: controller.nielsenApi))
    }

    @Test func sampleViewControllerRunsAgainstThePackage() {
        let controller = ViewController()
        controller.viewDidLoad()
        // The guide's placeholder appid ("PXXXXXXX-…") is not a real GUID, so init returns nil
        // as documented for invalid appInfo — and the optional-chained sample calls are no-ops.
        #expect(controller.nielsenAppApi == nil)
        controller.startTheMeasurement(pos: 1, metadataDict: controller.contentMetadata)
        controller.overviewOfCalls(nielsenApi: nil, secondsAsInt: 2)
    }
}
