// Swift written against the original SDK, as the guides' view controllers are, type-checked for iOS by
// scripts/apple-check (docs/apple.md) against the Objective-C surface: a UIViewController delegate in the
// form Xcode wrote for the unannotated headers (`NielsenAppApi!`, `[AnyHashable: Any]!`; Xcode warns that
// its optionality differs, and calls it), an NSObject delegate in the annotated form, the simplified API
// with the header's constants, and the opt-out flow. Not part of any target.
import UIKit
import NielsenAppApi

final class PlayerViewController: UIViewController, NielsenAppApiDelegate {
    var nielsenAppApi: NielsenAppApi?

    override func viewDidLoad() {
        super.viewDidLoad()
        let appInformation = ["appid": "PXXXXXXXX-XXXX-XXXX-XXXX-XXXXXXXXXXXX", "appversion": "1.0",
                              "appname": "Sample App", "sfcode": "dcr", "nol_devDebug": "DEBUG"]
        nielsenAppApi = NielsenAppApi(appInfo: appInformation, delegate: self)
        nielsenAppApi?.play(["channelName": "My Channel"])
        nielsenAppApi?.loadMetadata(["type": "content", "assetid": "vid-1", "length": "3600"])
        nielsenAppApi?.playheadPosition(10)
        nielsenAppApi?.sendID3("www.nielsen.com/X100zdCIGeIlgZnkYj6UvQ==/X100zdCIGeIlgZnkYj6UvQ==/AAAB2Jz2_k74GXSzx4npHuI_JwJd3QSUpW30rDkGTcbHEzIMWleCzM-uvNOP9fzJcQMWQLJqzXMCAxParOb5sGijSV9dNM3QiBniZYWW-Ru4_DQL4SXVO_--/00000/00000/00")
        nielsenAppApi?.updateOTT(["ottStatus": "1", "ottType": "airplay"])
        nielsenAppApi?.stop()
        nielsenAppApi?.end()
        if nielsenAppApi?.optOutStatus == false, let url = nielsenAppApi?.optOutURL { _ = url }
        _ = nielsenAppApi?.userOptOut(kNielsenWebClose)
        nielsenAppApi?.appDisableApi = false
        _ = nielsenAppApi?.meterVersion
        _ = nielsenAppApi?.lastErrorDict
    }

    func nielsenAppApi(_ appApi: NielsenAppApi!, eventOccurred event: [AnyHashable: Any]!) {}
}

final class EventLogger: NSObject, NielsenAppApiDelegate, NielsenEventTrackerDelegate {
    func nielsenAppApi(_ appApi: NielsenAppApi, errorOccurred error: [AnyHashable: Any]) {}
    func nielsenEventTracker(_ api: NielsenEventTracker, eventOccurred event: [AnyHashable: Any]) {}
}

func simplified(_ logger: EventLogger) {
    let tracker = NielsenEventTracker(appInfo: #"{"appid": "PXXXXXXXX-XXXX-XXXX-XXXX-XXXXXXXXXXXX"}"#, delegate: logger)
    tracker?.trackEvent([TrackEventParamEvent: TrackEventParamEventPlayhead, TrackEventParamType: TrackEventParamTypeContent,
                         TrackEventParamPlayheadPosition: "10",
                         TrackEventParamMetadata: [TrackEventParamMetadataContent: ["assetid": "vid-1"]]])
    tracker?.trackViewability(["viewTag": "1"])
}
