import AppMeter
import Foundation
import NielsenAppApi
import Testing

/// Code written against the original SDK's public headers as Swift imports them
/// (`NielsenAppApi.h`, `NielsenEventTracker.h` and their siblings) compiles unchanged and measures. Each
/// declaration is pinned by a typed reference, so a signature that drifts fails to compile.
@Suite struct OriginalHeaderSurfaceTests {
    /// The standard API's surface, by type.
    @Test func theStandardAPIsSurface() {
        let api = NielsenAppApi(appInfo: MeterHarness.appInfo(), delegate: nil, environment: LimitsAndNamesTests.environment())!
        let _: (Any, NielsenAppApiDelegate?) -> NielsenAppApi? = NielsenAppApi.init(appInfo:delegate:)
        let _: ([AnyHashable: Any]) -> Void = api.trackViewability
        let _: (Any?) -> Void = api.play
        let _: (Any?) -> Void = api.loadMetadata
        let _: () -> Void = api.stop
        let _: () -> Void = api.end
        let _: () -> Void = api.staticEnd
        let _: (Int64) -> Void = api.playheadPosition
        let _: (String) -> Void = api.sendID3
        let _: (Any) -> Void = api.updateOTT
        let _: (String) -> Bool = api.userOptOut
        let _: Bool = api.optOutStatus
        let _: String = api.demographicId
        let _: String = api.firstPartyId
        let _: String = api.vendorId
        let _: String = api.optOutURL
        let _: String? = api.meterVersion
        let _: [AnyHashable: Any]? = api.lastEventDict
        let _: [AnyHashable: Any]? = api.lastErrorDict
        let _: String = kNielsenWebClose
        api.appDisableApi = false
        api.debug = false
        #expect(kNielsenWebClose == "nielsen://close")
    }

    @Test @available(*, deprecated, message: "calls the deprecated getters on purpose")
    func theDeprecatedGetters() {
        let api = NielsenAppApi(appInfo: MeterHarness.appInfo(), delegate: nil, environment: LimitsAndNamesTests.environment())!
        let _: String = api.nielsenId
        let _: String = api.getNielsenId()
        let _: String = api.optOutURLString()
        let _: String? = api.getMeterVersion()
        let _: [AnyHashable: Any]? = api.getLastEventDict()
        let _: [AnyHashable: Any]? = api.getLastErrorDict()
        #expect(api.getMeterVersion() == MeterInstance.platformVersion)
    }

    /// Written as an integrator wrote it against the original headers: optional metadata, optional
    /// results read with `if let`, `NSDictionary`-typed dictionaries.
    @Test func integrationCodeWrittenAgainstTheHeadersMeasures() async {
        let meter = MeterHarness()
        let api: NielsenAppApi? = meter.api
        let metadata: [AnyHashable: Any]? = ["type": "content", "assetid": "vid345-67483", "program": "ProgramName",
                                              "title": "Program S3, EP1", "length": "3600", "airdate": "20171020 10:05:00",
                                              "isfullepisode": "y", "adloadtype": "2"]
        api?.play(nil)
        api?.loadMetadata(metadata)
        for position in Int64(0)...30 {
            meter.clock.advance(by: 1)
            api?.playheadPosition(position)
        }
        api?.end()
        if let version = api?.meterVersion { #expect(version.hasPrefix(MeterInstance.platformPrefix)) }
        if let error = api?.lastErrorDict { Issue.record("unexpected error \(error)") }
        api?.userOptOut("nielsenappsdk://0")          // the BOOL result unused, as Objective-C allows
        #expect(await meter.creditedOnTheWire() == ["content/vid345-67483": 30])
    }

    @Test func aNilMetadataIsReportedNotCrashed() async {
        let meter = MeterHarness()
        meter.api.loadMetadata(nil)
        await meter.processed()
        #expect(meter.api.lastErrorDict?["eventCode"] as? Int == 2)
    }

    /// The simplified API with the header's constants, as `NSDictionary` values.
    @Test func theTrackerWithTheHeadersConstantsMeasures() async {
        let meter = MeterHarness(simplified: true)
        let _: ([AnyHashable: Any]) -> Void = meter.tracker.trackEvent
        let _: ([AnyHashable: Any]) -> Void = meter.tracker.trackViewability
        let _: (Any, NielsenEventTrackerDelegate?) -> NielsenEventTracker? = NielsenEventTracker.init(appInfo:delegate:)
        let content: [AnyHashable: Any] = [TrackEventParamMetadataAssetId: "vid-1", "program": "P", "title": "T",
                                           "length": "3600", "type": "content", "isfullepisode": "y",
                                           "airdate": "20171020 10:05:00", "adloadtype": "2"]
        for position in 0...20 {
            meter.clock.advance(by: 1)
            meter.tracker.trackEvent([
                TrackEventParamEvent: TrackEventParamEventPlayhead,
                TrackEventParamType: TrackEventParamTypeContent,
                TrackEventParamPlayheadPosition: String(position),
                TrackEventParamMetadata: [TrackEventParamMetadataContent: content],
            ] as [AnyHashable: Any])
        }
        meter.tracker.trackEvent([TrackEventParamEvent: TrackEventParamEventComplete, TrackEventParamType: TrackEventParamTypeContent])
        #expect(await meter.creditedOnTheWire() == ["content/vid-1": 20])
        // A [String: Any] still compiles where the header takes [AnyHashable: Any].
        let plain: [String: Any] = [TrackEventParamEvent: TrackEventParamEventPause]
        meter.tracker.trackEvent(plain)
    }

    @Test func everyConstantHasTheHeadersValue() {
        let expected: [(String, String)] = [
            (TrackEventParamEvent, "event"), (TrackEventParamType, "type"), (TrackEventParamMetadata, "metadata"),
            (TrackEventParamPlayheadPosition, "playheadPosition"), (TrackEventParamId3Data, "id3Data"),
            (TrackEventParamOttData, "ottData"), (TrackEventParamOptout, "optout"), (TrackEventParamBuffering, "buffering"),
            (TrackEventParamButtonEvent, "buttonEvent"), (TrackEventParamEventPlayhead, "playhead"),
            (TrackEventParamEventPause, "pause"), (TrackEventParamEventComplete, "complete"), (TrackEventParamEventAdStop, "adStop"),
            (TrackEventParamTypeContent, "content"), (TrackEventParamTypeAd, "ad"), (TrackEventParamTypeStatic, "static"),
            (TrackEventParamMetadataContent, "content"), (TrackEventParamMetadataAd, "ad"), (TrackEventParamMetadataStatic, "static"),
            (TrackEventParamMetadataAssetId, "assetId"), (TrackEventParamMetadataAdType, "type"),
            (TrackEventParamAdTypePreroll, "preroll"), (TrackEventParamAdTypeMidroll, "midroll"), (TrackEventParamAdTypePostroll, "postroll"),
            (TrackEventParamButtonPlay, "play"), (TrackEventParamButtonPause, "pause"), (TrackEventParamButtonResume, "resume"),
            (TrackEventParamButtonStop, "stop"), (TrackEventParamButtonForward, "forward"), (TrackEventParamButtonRewind, "rewind"),
        ]
        for (constant, value) in expected { #expect(constant == value) }
    }
}
