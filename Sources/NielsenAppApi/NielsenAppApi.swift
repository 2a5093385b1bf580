public import AppMeter
import Foundation
import Logging

/// The primary application interface of the SDK, with the documented names so that existing
/// integration code compiles unchanged, from Swift and, on Apple platforms, from Objective-C
/// (`initWithAppInfo:delegate:`, `play:`, `loadMetadata:`, `playheadPosition:`…).
///
/// Every method takes the documented input — a JSON object string or a dictionary of strings —
/// returns at once, and may be called from any thread; an instance processes its calls in the
/// order they were made. Bad input never crashes: it is reported to the delegate and in
/// ``NielsenMeasuringObject/lastErrorDict``, and the call is ignored.
///
/// ```swift
/// let api = NielsenAppApi(appInfo: ["appid": "P…", "appname": "My App", "appversion": "1.0",
///                                   "sfcode": "dcr"], delegate: self)
/// api?.play(["channelName": "My Channel"])
/// api?.loadMetadata(contentMetadata)
/// api?.playheadPosition(position)   // every second
/// api?.end()
/// ```
#if canImport(ObjectiveC)
@objc(NielsenAppApi)
#endif
public final class NielsenAppApi: NielsenMeasuringObject, @unchecked Sendable {
    /// Creates an SDK instance, or returns nil when `appInfo` has no usable `appid` or is not a
    /// JSON object or dictionary of strings, or when four instances for the same appid are already
    /// alive; the reason is logged at ERROR and told to `delegate` (error 1007 for the appid, 1004
    /// for appInfo that is not an object, 6 for a fifth instance), with an Initial-state instance
    /// standing for the one not created. Any other problem in appInfo (a missing `appname`, an
    /// unknown `nol_devDebug`…) is reported to the delegate and measurement goes on.
    ///
    /// - Parameters:
    ///   - appInfo: a JSON object string or a dictionary with `appid` (required, `P`/`T` + GUID),
    ///     `appname`, `appversion`, `sfcode`, optional `nol_devDebug` (`INFO`, `WARN`, `ERROR`,
    ///     `DEBUG`) and the AppMeter extension `nol_collectorURL` (the collector's base URL).
    ///   - delegate: receives events and errors; held weakly.
    #if canImport(ObjectiveC)
    @objc(initWithAppInfo:delegate:)
    #endif
    public convenience init?(appInfo: Any, delegate: (any NielsenAppApiDelegate)?) {
        self.init(appInfo: appInfo, delegate: delegate, environment: .live)
    }

    /// Creates an SDK instance with an injected environment (clock, transport, identifiers):
    /// the AppMeter extension used by tests, `meter demo` and test rigs.
    public init?(appInfo: Any, delegate: (any NielsenAppApiDelegate)?, environment: MeterEnvironment) {
        let relay = DelegateRelay(notify: NielsenAppApiDelegateCall.notify, standIn: { NielsenAppApi() })
        switch FacadeSetup.makeInstance(
            appInfo: appInfo, environment: environment, facade: "NielsenAppApi", limitsInstances: true,
            events: relay.deliver) {
        case .success(let instance):
            super.init(instance: instance)
        case .failure(let failure):
            relay.reportFailedInit(failure, placeholder: NielsenAppApi(), delegate: delegate)
            return nil
        }
        relay.attach(api: self, delegate: delegate)
    }

    /// Creates an instance in the Initial state. As documented, such an instance ignores every
    /// call and reports nothing: use ``init(appInfo:delegate:)``.
    public init() {
        super.init(instance: nil)
    }

    // MARK: Measurement

    /// Starts a viewing session. `channelInfo` is an optional JSON object string or dictionary with
    /// `channelName`; without it the channel name is `defaultChannelName`. Calling `play` again
    /// while a session runs does nothing.
    #if canImport(ObjectiveC)
    @objc(play:)
    #endif
    public func play(_ channelInfo: Any? = nil) {
        guard let meter else { return }
        guard let channelInfo else { return meter.play(channelName: nil) }
        switch UntypedInput.stringDictionary(from: channelInfo) {
        case .success(let values): meter.play(channelName: values["channelName"])
        case .failure(let error): meter.reportInputError(.failedParseStartInfo, "play: \(error); call ignored")
        }
    }

    /// Loads content or ad metadata (a JSON object string or dictionary of strings) at the start
    /// of each asset and when resuming after `stop`. Missing or invalid keys are reported as
    /// errors naming the key; the asset is still measured. Nil is reported (error 2) and ignored.
    #if canImport(ObjectiveC)
    @objc(loadMetadata:)
    #endif
    public func loadMetadata(_ metadata: Any?) {
        guard let meter else { return }
        guard let metadata else {
            return meter.reportInputError(.failedParseMetadata, "loadMetadata: no metadata (nil); call ignored")
        }
        meter.loadMetadata(untyped: metadata)
    }

    /// Reports the playhead every second while playing: seconds from the start for VOD (ads
    /// restart at 0), Unix seconds for live. Costs well under a microsecond on the caller's thread.
    #if canImport(ObjectiveC)
    @objc(playheadPosition:)
    #endif
    public func playheadPosition(_ playheadPos: Int64) {
        meter?.playheadPosition(playheadPos)
    }

    /// Passes each timed-metadata item of the stream (DTVR): the PRIV owner string the player
    /// extracted, `www.nielsen.com/<PC CID>/<FD CID>/<payload>/<PC offset>/<FD offset>/<breakout>`.
    /// Other strings are ignored without a word; a Nielsen tag that does not parse is reported as
    /// error 3. Players without AVFoundation get owner strings from raw ID3 bytes or DASH `emsg`
    /// boxes with `MeterWire`'s `ID3v2` and `DASHEventMessage`.
    #if canImport(ObjectiveC)
    @objc(sendID3:)
    #endif
    public func sendID3(_ data: String) {
        meter?.sendID3(data)
    }

    /// Ends the static page's view (`staticEnd` of the public header): the seconds it was shown go
    /// out, and loading the same static metadata again counts a new view.
    #if canImport(ObjectiveC)
    @objc
    #endif
    public func staticEnd() {
        meter?.staticEnd()
    }

    /// Pauses measurement: on pause, at the end of each ad, and on every interruption.
    #if canImport(ObjectiveC)
    @objc
    #endif
    public func stop() {
        meter?.stop()
    }

    /// Ends the content: playback completed or the user switched to other content.
    #if canImport(ObjectiveC)
    @objc
    #endif
    public func end() {
        meter?.end()
    }

    /// The Nielsen id.
    #if canImport(ObjectiveC)
    @objc
    #endif
    @available(*, deprecated, message: "Please use nielsenId property instead.")
    public func getNielsenId() -> String { demographicId }

    /// The opt-out URL.
    #if canImport(ObjectiveC)
    @objc
    #endif
    @available(*, deprecated, message: "Please use optOutURL property instead.")
    public func optOutURLString() -> String { optOutURL }

    /// The SDK version.
    #if canImport(ObjectiveC)
    @objc
    #endif
    @available(*, deprecated, message: "Please use meterVersion property instead.")
    public func getMeterVersion() -> String? { meterVersion }

    /// The last event.
    #if canImport(ObjectiveC)
    @objc
    #endif
    @available(*, deprecated, message: "Please use lastEventDict property instead.")
    public func getLastEventDict() -> [AnyHashable: Any]! { lastEventDict }

    /// The last error.
    #if canImport(ObjectiveC)
    @objc
    #endif
    @available(*, deprecated, message: "Please use lastErrorDict property instead.")
    public func getLastErrorDict() -> [AnyHashable: Any]! { lastErrorDict }
}

/// The URL the opt-out page navigates to when the user closes it: close the web view. Objective-C
/// code gets the same constant from `<NielsenAppApi/NielsenAppApi.h>` (the `NielsenAppApiObjC` target).
public let kNielsenWebClose = OptOutPage.closeCommand
