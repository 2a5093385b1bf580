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
public final class NielsenAppApi: Sendable {
    private let instance: MeterInstance?
    private let relay = DelegateRelay()

    /// Creates an SDK instance, or returns nil when `appInfo` has no usable `appid` or is not a
    /// JSON object or dictionary of strings, or when four instances for the same appid are already
    /// alive; the reason is logged at ERROR. Any other problem in appInfo (a missing `appname`, an
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
        let logger = environment.makeLogger(label: "NielsenAppApi")
        let values: [String: String]
        let inputIssues: [AppInfoIssue]
        switch UntypedInput.appInfoDictionary(from: appInfo) {
        case .success(let parsed):
            values = parsed.values
            inputIssues = parsed.problems.map { AppInfoIssue(code: .emptyValue, message: "appInfo: \($0)") }
        case .failure(let error):
            logger.error("NielsenAppApi not created: appInfo \(error)")
            return nil
        }
        let parsedInfo: AppInfo
        switch AppInfo.parse(values, inputIssues: inputIssues) {
        case .success(let info): parsedInfo = info
        case .failure(let error):
            logger.error("NielsenAppApi not created: \(error)")
            return nil
        }
        let relay = self.relay
        guard let instance = MeterInstance(appInfo: parsedInfo, environment: environment, events: relay.deliver)
        else {
            logger.error(
                "NielsenAppApi not created: appid \(parsedInfo.appID) already has four live instances; release one first")
            return nil
        }
        self.instance = instance
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
    /// errors naming the key; the asset is still measured.
    public func loadMetadata(_ metadata: Any) {
        guard let instance else { return }
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

    /// Tells the SDK the app went to the background (named like the Android
    /// `AppLaunchMeasurementManager` call the guides show). On Apple platforms the SDK observes
    /// UIKit's notifications itself; call this on Linux or from a custom lifecycle. A static page's
    /// time pauses and video without picture-in-picture is interrupted.
    public func appInBackground() {
        instance?.appInBackground()
    }

    /// Tells the SDK the app came back to the foreground; after more than 30 minutes in the
    /// background a new viewing session starts.
    public func appInForeground() {
        instance?.appInForeground()
    }

    /// Pauses measurement: on pause, at the end of each ad, and on every interruption.
    public func stop() {
        instance?.stop()
    }

    /// Ends the content: playback completed or the user switched to other content.
    public func end() {
        instance?.end()
    }

    // MARK: Properties

    /// The kill switch: `true` disables measurement (nothing is measured or built while
    /// disabled); `false` enables it again.
    public var appDisableApi: Bool {
        get { instance?.isDisabled ?? false }
        set { instance?.isDisabled = newValue }
    }

    /// Turns verbose (DEBUG) logging on or off at run time.
    public var debug: Bool {
        get { instance?.debug ?? false }
        set { instance?.debug = newValue }
    }

    /// The SDK version, e.g. `ai.1.0.0` (`al.` on Linux).
    public var meterVersion: String {
        instance?.sdkVersion ?? MeterInstance.platformVersion
    }

    /// The last event (`eventCode`, `eventDescription`, `timestamp`), or nil before any.
    public var lastEventDict: [AnyHashable: Any]! {
        instance?.snapshot.lastEvent?.delegateDictionary
    }

    /// The last error (`eventCode`, `eventDescription`, `timestamp`), or nil before any.
    public var lastErrorDict: [AnyHashable: Any]! {
        instance?.snapshot.lastError?.delegateDictionary
    }

    // MARK: Opt-out and identifiers

    /// The opt-out page to load in a web view: it explains the device setting (global flavour) or
    /// lets the user choose (no-ad-framework flavour), and navigates to `nielsenappsdk://1` (out),
    /// `nielsenappsdk://0` (in) or ``kNielsenWebClose``. Empty for an instance made with `init()`.
    public var optOutURL: String {
        instance?.optOutURL ?? ""
    }

    /// True when the user is opted out, at OS level (ad tracking limited) or app level
    /// (``userOptOut(_:)``); always true for the noID flavour. Opted-out users are still measured:
    /// their pings carry `uoo=true` and no identifier.
    public var optOutStatus: Bool {
        instance?.optOutStatus ?? false
    }

    /// Passes a URL the opt-out web view navigated to. Returns true when it was the opt-out
    /// (`nielsenappsdk://1`) or opt-in (`nielsenappsdk://0`) command, which the SDK records and keeps
    /// across launches (the app need not store it); false for any other string and for nil (the
    /// guides pass `navigationAction.request.url?.absoluteString` as it is).
    @discardableResult
    public func userOptOut(_ optOut: String?) -> Bool {
        guard let optOut else { return false }
        return instance?.userOptOut(optOut) ?? false
    }

    /// The device id sent in pings (SHA-256 hex), or an empty string when opted out or noID.
    public var demographicId: String {
        instance?.demographicID ?? ""
    }

    /// The first-party id sent in pings, or an empty string when opted out, disabled
    /// (`enableFpid` = `"false"`) or noID.
    public var firstPartyId: String {
        instance?.firstPartyID ?? ""
    }

    /// The vendor id sent in pings (SHA-256 hex), or an empty string when opted out or noID.
    public var vendorId: String {
        instance?.vendorID ?? ""
    }

    /// The Nielsen id: the same hashed device id as ``demographicId``.
    @available(*, deprecated, message: "Please use demographicId instead.")
    public var nielsenId: String {
        demographicId
    }

    /// The Nielsen id.
    @available(*, deprecated, message: "Please use nielsenId property instead.")
    public func getNielsenId() -> String { demographicId }

    /// The opt-out URL.
    @available(*, deprecated, message: "Please use optOutURL property instead.")
    public func optOutURLString() -> String { optOutURL }

    /// The SDK version.
    @available(*, deprecated, message: "Please use meterVersion property instead.")
    public func getMeterVersion() -> String { meterVersion }

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

    /// The delivery diagnostics (AppMeter extension): `queued`, `queuedBytes`, `paused`,
    /// `consecutiveFailures`, `delivered`, `retried`, `recovered`, `dropped.rejected`,
    /// `dropped.overflow`, `dropped.expired`, `corruptRecords`. Empty for an instance made with `init()`.
    public var diagnostics: [String: Any] {
        guard let instance else { return [:] }
        return instance.diagnostics.dictionary.mapValues { $0 as Any }
    }

    /// Waits until every call made so far is processed and every ping built has been delivered
    /// or refused by the collector (or sending is paused). Calls made meanwhile, from any thread,
    /// go on being processed and checkpointed, even while the collector is unreachable.
    public func flush() async {
        await instance?.flush()
    }

    /// Waits until the census config has arrived and been applied (see `MeterInstance`).
    public func waitUntilConfigured() async {
        await instance?.waitUntilConfigured()
    }
}

/// The URL the opt-out page navigates to when the user closes it: close the web view.
public let kNielsenWebClose = OptOutPage.closeCommand
