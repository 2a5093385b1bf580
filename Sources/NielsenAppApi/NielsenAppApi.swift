import AppMeter
import Foundation
import Logging

/// The primary application interface of the SDK, with the documented names so that existing
/// integration code compiles unchanged.
///
/// Every method takes the documented input — a JSON object string or a dictionary of strings —
/// returns at once, and may be called from any thread; an instance processes its calls in the
/// order they were made. Bad input never crashes: it is reported to the delegate and in
/// ``lastErrorDict``, and the call is ignored.
///
/// ```swift
/// let api = NielsenAppApi(appInfo: ["appid": "P…", "appname": "My App", "appversion": "1.0",
///                                   "sfcode": "dcr"], delegate: self)
/// api?.play(["channelName": "My Channel"])
/// api?.loadMetadata(contentMetadata)
/// api?.playheadPosition(position)   // every second
/// api?.end()
/// ```
public final class NielsenAppApi: NielsenMeasuring, Sendable {
    private let instance: MeterInstance?
    private let relay = DelegateRelay { api, delegate, event in
        guard let api = api as? NielsenAppApi, let delegate = delegate as? NielsenAppApiDelegate else { return }
        let dictionary = event.delegateDictionary
        // Both forms: the one the app implemented runs, the other is the protocol's no-op.
        let imported: NielsenAppApi? = api
        let importedDictionary: [AnyHashable: Any]? = dictionary
        if event.code.isEvent {
            delegate.nielsenAppApi(api, eventOccurred: dictionary)
            delegate.nielsenAppApi(imported, eventOccurred: importedDictionary)
        } else {
            delegate.nielsenAppApi(api, errorOccurred: dictionary)
            delegate.nielsenAppApi(imported, errorOccurred: importedDictionary)
        }
    }

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
    public convenience init?(appInfo: Any, delegate: NielsenAppApiDelegate?) {
        self.init(appInfo: appInfo, delegate: delegate, environment: .live)
    }

    /// Creates an SDK instance with an injected environment (clock, transport, identifiers):
    /// the AppMeter extension used by tests, `meter demo` and test rigs.
    public init?(appInfo: Any, delegate: NielsenAppApiDelegate?, environment: MeterEnvironment) {
        switch FacadeSetup.makeInstance(
            appInfo: appInfo, environment: environment, facade: "NielsenAppApi", limitsInstances: true, events: relay.deliver) {
        case .success(let instance):
            self.instance = instance
        case .failure(let failure):
            relay.reportFailedInit(failure, placeholder: NielsenAppApi(), delegate: delegate)
            return nil
        }
        relay.attach(api: self, delegate: delegate)
    }

    /// Creates an instance in the Initial state. As documented, such an instance ignores every
    /// call and reports nothing: use ``init(appInfo:delegate:)``.
    public init() {
        instance = nil
    }

    // MARK: Measurement

    /// Starts a viewing session. `channelInfo` is an optional JSON object string or dictionary with
    /// `channelName`; without it the channel name is `defaultChannelName`. Calling `play` again
    /// while a session runs does nothing.
    public func play(_ channelInfo: Any? = nil) {
        guard let instance else { return }
        guard let channelInfo else { return instance.play(channelName: nil) }
        switch UntypedInput.stringDictionary(from: channelInfo) {
        case .success(let values): instance.play(channelName: values["channelName"])
        case .failure(let error): instance.reportInputError(.failedParseStartInfo, "play: \(error); call ignored")
        }
    }

    /// Loads content or ad metadata (a JSON object string or dictionary of strings) at the start
    /// of each asset and when resuming after `stop`. Missing or invalid keys are reported as
    /// errors naming the key; the asset is still measured. Nil is reported (error 2) and ignored.
    public func loadMetadata(_ metadata: Any?) {
        guard let instance else { return }
        guard let metadata else {
            return instance.reportInputError(.failedParseMetadata, "loadMetadata: no metadata (nil); call ignored")
        }
        switch UntypedInput.stringDictionary(from: metadata) {
        case .success(let values): instance.loadMetadata(values)
        case .failure(let error): instance.reportInputError(.failedParseMetadata, "loadMetadata: \(error); call ignored")
        }
    }

    /// Reports the playhead every second while playing: seconds from the start for VOD (ads
    /// restart at 0), Unix seconds for live. Costs well under a microsecond on the caller's thread.
    public func playheadPosition(_ playheadPos: Int64) {
        instance?.playheadPosition(playheadPos)
    }

    /// Passes each timed-metadata item of the stream (DTVR): the PRIV owner string the player
    /// extracted, `www.nielsen.com/<PC CID>/<FD CID>/<payload>/<PC offset>/<FD offset>/<breakout>`.
    /// Other strings are ignored without a word; a Nielsen tag that does not parse is reported as
    /// error 3. Players without AVFoundation get owner strings from raw ID3 bytes or DASH `emsg`
    /// boxes with `MeterWire`'s `ID3v2` and `DASHEventMessage`.
    public func sendID3(_ data: String) {
        instance?.sendID3(data)
    }

    /// Ends the static page's view (`staticEnd` of the public header): the seconds it was shown go
    /// out, and loading the same static metadata again counts a new view.
    public func staticEnd() {
        instance?.staticEnd()
    }

    /// Pauses measurement: on pause, at the end of each ad, and on every interruption.
    public func stop() {
        instance?.stop()
    }

    /// Ends the content: playback completed or the user switched to other content.
    public func end() {
        instance?.end()
    }

    /// The Nielsen id.
    @available(*, deprecated, message: "Please use nielsenId property instead.")
    public func getNielsenId() -> String { demographicId }

    /// The opt-out URL.
    @available(*, deprecated, message: "Please use optOutURL property instead.")
    public func optOutURLString() -> String { optOutURL }

    /// The SDK version.
    @available(*, deprecated, message: "Please use meterVersion property instead.")
    public func getMeterVersion() -> String? { meterVersion }

    /// The last event.
    @available(*, deprecated, message: "Please use lastEventDict property instead.")
    public func getLastEventDict() -> [AnyHashable: Any]! { lastEventDict }

    /// The last error.
    @available(*, deprecated, message: "Please use lastErrorDict property instead.")
    public func getLastErrorDict() -> [AnyHashable: Any]! { lastErrorDict }

    // MARK: AppMeter extensions

    /// The engine behind this object (nil for an instance made with `init()`): its snapshot shows
    /// the lifecycle state, credited seconds and delivery counters.
    public var meter: MeterInstance? { instance }
}

/// The URL the opt-out page navigates to when the user closes it: close the web view.
public let kNielsenWebClose = OptOutPage.closeCommand
