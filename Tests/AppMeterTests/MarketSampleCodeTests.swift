// The Swift samples of the market wiki pages DCR Italy AUDIO, Static and Video iOS SDK and DCR
// Poland Video iOS SDK, as published, compiled against the `NielsenAppApi` product.
// UIKit/WebKit/AVFoundation types are minimal stand-ins so the file builds on Linux; only the
// guides' own typos are fixed, each marked "typo:". Samples that need APIs of open issues
// (`updateOTT`) are left out, and so is Poland's UIWebView snippet, which returns
// `NielsenAppApi.optOutURL` (a String, on the type) from a Bool function and compiles against no SDK.
import AppMeter
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NielsenAppApi
import Testing

/// Stand-ins for the WebKit types the opt-out samples use.
enum WKNavigationActionPolicy { case allow, cancel }
struct WKNavigationAction { let request: URLRequest }
final class WKWebView {}

// the Italy audio page "NielsenInit.swift" (no sfcode) and its "Sequence of Calls".
enum ItalyAudioSample {
    class NielsenInit: NSObject {
        class func createNielsenApi(delegate: NielsenAppApiDelegate) -> NielsenAppApi? {
            let appInformation: [String: String] = [
                "appid": "PDA7D5EE6-B1B8-4123-9277-2A788XXXXXXX",
                "appversion": "1.0.2",
                "appname": "Nielsen Sample App",
                "nol_devDebug": "DEBUG",
            ]
            return NielsenAppApi(appInfo: appInformation, delegate: delegate)
        }
    }

    final class Player: SampleViewControllerBase, NielsenAppApiDelegate {
        var nielsenAppApi: NielsenAppApi!
        var nielsenApi: NielsenAppApi!

        let channelInfo = [
            "channelName": "My Channel Name 1",
        ];
        let contentMetadata = [
            "type": "content",
            "isAudio": "true",
            "assetid": "88675545",
            "title": "Program S3, EP1",
            "isfullepisode": "y",
            "adloadtype": "2",
            "program": "Program Name",
            "length": "3600",
            "airdate": "20171020 10:05:00",
        ];
        let adMetadata = [
            "assetid": "unique_postroll_ad_id",
            "type": "preroll",
        ]

        func sequenceOfCalls(time: Float64) {
            nielsenAppApi?.play();
            self.nielsenAppApi?.loadMetadata(contentMetadata)
            let pos = Int64(time);
            NSLog("New Elapse Time = \(time)");
            self.nielsenAppApi?.playheadPosition(pos);
            nielsenApi.stop()
            nielsenApi.end()
        }

        // "Opt-out": the WKNavigationDelegate method, with the String? the page passes.
        var NIELSEN_URL_OPT_OUT: String = "nielsenappsdk://1"
        var NIELSEN_URL_OPT_IN: String = "nielsenappsdk://0"

        func webView(_ webView: WKWebView, decidePolicyFor navigationAction: WKNavigationAction,
                     decisionHandler: @escaping (WKNavigationActionPolicy) -> Void) {
            let urlStr = navigationAction.request.url?.absoluteString

            if(urlStr == NIELSEN_URL_OPT_OUT || urlStr == NIELSEN_URL_OPT_IN){
                let appApi = self.nielsenApi
                appApi?.userOptOut(urlStr)
                decisionHandler(.allow)

            }else{
                decisionHandler(.cancel)
            }
        }
    }
}

// the Italy static page "NielsenInit.swift" (sfcode it), the landing page and its metadata.
enum ItalyStaticSample {
    class NielsenInit: NSObject {
        class func createNielsenApi(delegate: NielsenAppApiDelegate) -> NielsenAppApi? {
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

    final class LandingVC: SampleViewControllerBase, NielsenAppApiDelegate {
        var nielsenMain: NielsenAppApi!
        var nielsenAppApi: NielsenAppApi?
        var data: [String: Any]!

        func viewDidAppear(_ animated: Bool) {
            self.data = ["type": "static", "section": "Home_EntityName_iOS"]   // the app's own loadStaticMaster()
            self.nielsenMain.loadMetadata(self.data)
        }

        func staticPage() {
            let staticMetadata = [
                "type": "static",
                "assetid": "HomePage",
                "section": "Home_EntityName_iOS",
            ];
            self.nielsenAppApi?.loadMetadata(staticMetadata)
        }
    }
}

// the Poland page: NielsenInit without appname/appversion, the FPID variant, metadata and calls.
enum PolandSample {
    class NielsenInit: NSObject {
        class func createNielsenApi(delegate: NielsenAppApiDelegate) -> NielsenAppApi? {
            let appInformation: [String: String] = [
                "appid": "PDA7D5EE6-B1B8-4123-9277-2A788XXXXXXX",
                "sfcode": "pl",
                "nol_devDebug": "DEBUG",
            ]
            return NielsenAppApi(appInfo: appInformation, delegate: delegate)
        }

        class func createNielsenApiWithoutFPID(delegate: NielsenAppApiDelegate) -> NielsenAppApi? {
            let appInformation: [String: String] = [
                "appid": "PDA7D5EE6-B1B8-4123-9277-2A788XXXXXXX",
                "sfcode": "pl", // sfcode for Poland
                "enableFpid": "false", //false = FPID is disabled, true= FPID is enabled (typo: missing comma)
                "nol_devDebug": "DEBUG", // only for debug builds and see the Nielsen logs
            ]
            return NielsenAppApi(appInfo: appInformation, delegate: delegate)
        }
    }

    final class Player: SampleViewControllerBase, NielsenAppApiDelegate {
        var nielsenApi: NielsenAppApi!

        let channelInfo = [
            "channelName": "My Channel Name 1",
        ];
        let contentMetadata = [
            "type": "content",
            "assetid": "C77664",
            "title": "Program S2, E3",
            "isfullepisode": "Yes",
            "program": "Program Name",
            "length": "3600",
            "airdate": "20171020 10:05:00",
            "adloadtype": "2",
            "segB": "CustomSegmentValueB", //optional
            "segC": "CustomSegmentValueC", //optional
        ];
        let adMetadata = [
            "type": "preroll",
            "assetid": "123456",
        ];

        func overview(secondsAsInt: Int64) {
            nielsenApi?.play(channelInfo);
            nielsenApi?.loadMetadata(contentMetadata)
            nielsenApi?.playheadPosition(secondsAsInt)
            nielsenApi?.stop()
            nielsenApi?.end()
        }
    }
}

@Suite struct MarketSampleCodeTests {
    static func api(_ extra: [String: String] = [:]) -> NielsenAppApi? {
        NielsenAppApi(appInfo: MeterHarness.appInfo(extra: extra), delegate: nil,
                      environment: MeterEnvironment(storage: InMemoryStorage()))
    }

    /// The Italy opt-out handler passes `url?.absoluteString` (a `String?`) straight to userOptOut.
    @Test func italyOptOutHandlerRecordsTheChoice() {
        let player = ItalyAudioSample.Player()
        player.nielsenApi = Self.api(["nol_sdkFlavor": "noAdFramework"])
        var decisions: [WKNavigationActionPolicy] = []
        for url in ["https://example.com", "nielsenappsdk://1"] {
            player.webView(WKWebView(), decidePolicyFor: WKNavigationAction(request: URLRequest(url: URL(string: url)!))) {
                decisions.append($0)
            }
        }
        #expect(decisions == [.cancel, .allow])
        #expect(player.nielsenApi.optOutStatus)
    }

    /// The published placeholder appid is not a GUID, so the samples' own init returns nil (A1);
    /// with a real appid the same calls measure.
    @Test func marketSamplesRunAgainstThePackage() {
        #expect(ItalyAudioSample.NielsenInit.createNielsenApi(delegate: ItalyAudioSample.Player()) == nil)
        #expect(PolandSample.NielsenInit.createNielsenApiWithoutFPID(delegate: PolandSample.Player()) == nil)
        let player = PolandSample.Player()
        player.nielsenApi = Self.api(["sfcode": "pl"])
        player.overview(secondsAsInt: 0)
        let audio = ItalyAudioSample.Player()
        audio.nielsenApi = Self.api(["sfcode": "it"])
        audio.nielsenAppApi = audio.nielsenApi
        audio.sequenceOfCalls(time: 1.4)
        let landing = ItalyStaticSample.LandingVC()
        landing.nielsenMain = Self.api(["sfcode": "it"])
        landing.viewDidAppear(true)
        landing.staticPage()
    }
}
