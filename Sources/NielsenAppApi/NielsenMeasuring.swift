import AppMeter

/// What ``NielsenAppApi`` and ``NielsenEventTracker`` share besides their measurement calls: the
/// documented properties (kill switch, debug, version, last event and error, opt-out, identifiers)
/// and AppMeter's diagnostics, all read from the engine instance behind the object.
public protocol NielsenMeasuring: AnyObject {
    /// The engine behind this object (nil for an object made with `init()`, which measures nothing).
    var meter: MeterInstance? { get }
}

extension NielsenMeasuring {
    /// Tells the SDK the app went to the background (named like the Android
    /// `AppLaunchMeasurementManager` call the guides show). On Apple platforms the SDK observes
    /// UIKit's notifications itself; call this on Linux or from a custom lifecycle. A static page's
    /// time pauses and video without picture-in-picture is interrupted.
    public func appInBackground() {
        meter?.appInBackground()
    }

    /// Tells the SDK the app came back to the foreground; after more than 30 minutes in the
    /// background a new viewing session starts.
    public func appInForeground() {
        meter?.appInForeground()
    }

    /// Reports a change of OTT device (AirPlay, mirroring, casting): a dictionary or JSON object
    /// string with `ottStatus` (`"0"`/`"1"`), `ottType` (`airplay`, `mirroring`, `casting`,
    /// `other`), and optionally `ottDevice`, `ottDeviceModel`, `ottDeviceID`. Pings from then on
    /// carry `c71=ottflg,1` and `c72=otttyp,<type>`; the credit before the change goes out first.
    /// Without a valid `ottStatus` the call is reported (error 2) and ignored.
    public func updateOTT(_ ottInfo: Any) {
        guard let meter else { return }
        switch UntypedInput.lenientDictionary(from: ottInfo) {
        case .success(let parsed): meter.updateOTT(parsed.values)
        case .failure(let error): meter.reportInputError(.failedParseMetadata, "updateOTT: \(error); call ignored")
        }
    }

    /// Starts viewability and audibility measurement of the player view (ios-simplified-api.txt):
    /// `viewTag` (the player view's tag; default appInfo `containerId`), optionally
    /// `viewContainer` (the tag of a view that clips it) and `friendlyObstructions` (tags). From then
    /// on each measurement ping is followed by a viewability ping (a POST with the `invs`, `inau`,
    /// `inss`, `invp`, `ines` series). Bad input is error 2; no provider on the platform, error 6.
    ///
    /// Takes `[AnyHashable: Any]`, as the original header imports (`NSDictionary`); a `[String: Any]`
    /// converts to it implicitly.
    public func trackViewability(_ data: [AnyHashable: Any]) {
        guard let meter else { return }
        let strings: [String: Any]
        switch UntypedInput.object(from: data) {
        case .success(let object): strings = object
        case .failure(let error): return meter.reportInputError(.failedParseMetadata, "trackViewability: \(error); call ignored")
        }
        switch ViewabilityTargetParser.parse(strings, containerId: meter.appInfo.containerTag) {
        case .success(let target): meter.trackViewability(target)
        case .failure(let rejection): meter.reportInputError(.failedParseMetadata, "trackViewability: \(rejection.reason); call ignored")
        }
    }

    /// The kill switch: `true` disables measurement (nothing is measured or built while
    /// disabled); `false` enables it again.
    public var appDisableApi: Bool {
        get { meter?.isDisabled ?? false }
        set { meter?.isDisabled = newValue }
    }

    /// Turns verbose (DEBUG) logging on or off at run time.
    public var debug: Bool {
        get { meter?.debug ?? false }
        set { meter?.debug = newValue }
    }

    /// The SDK version, e.g. `ai.1.0.0` (`al.` on Linux). Optional, as the original header
    /// declares it (`nullable`); it is never nil.
    public var meterVersion: String? {
        meter?.sdkVersion ?? MeterInstance.platformVersion
    }

    /// The last event (`eventCode`, `eventDescription`, `timestamp`), or nil before any.
    public var lastEventDict: [AnyHashable: Any]! {
        meter?.snapshot.lastEvent?.delegateDictionary
    }

    /// The last error (`eventCode`, `eventDescription`, `timestamp`), or nil before any.
    public var lastErrorDict: [AnyHashable: Any]! {
        meter?.snapshot.lastError?.delegateDictionary
    }

    // MARK: Opt-out and identifiers

    /// The opt-out page to load in a web view: it explains the device setting (global flavour) or
    /// lets the user choose (no-ad-framework flavour), and navigates to `nielsenappsdk://1` (out),
    /// `nielsenappsdk://0` (in) or ``kNielsenWebClose``. Empty for an instance made with `init()`.
    public var optOutURL: String {
        meter?.optOutURL ?? ""
    }

    /// True when the user is opted out, at OS level (ad tracking limited) or app level
    /// (``userOptOut(_:)``); always true for the noID flavour. Opted-out users are still measured:
    /// their pings carry `uoo=true` and no identifier.
    public var optOutStatus: Bool {
        meter?.optOutStatus ?? false
    }

    /// Passes a URL the opt-out web view navigated to. Returns true when it was the opt-out
    /// (`nielsenappsdk://1`) or opt-in (`nielsenappsdk://0`) command, which the SDK records and keeps
    /// across launches (the app need not store it); false for any other string and for nil (the
    /// guides pass `navigationAction.request.url?.absoluteString` as it is).
    @discardableResult
    public func userOptOut(_ optOut: String?) -> Bool {
        guard let optOut else { return false }
        return meter?.userOptOut(optOut) ?? false
    }

    /// The device id sent in pings (SHA-256 hex), or an empty string when opted out or noID.
    public var demographicId: String {
        meter?.demographicID ?? ""
    }

    /// The first-party id sent in pings, or an empty string when opted out, disabled
    /// (`enableFpid` = `"false"`) or noID.
    public var firstPartyId: String {
        meter?.firstPartyID ?? ""
    }

    /// The vendor id sent in pings (SHA-256 hex), or an empty string when opted out or noID.
    public var vendorId: String {
        meter?.vendorID ?? ""
    }

    /// The Nielsen id: the same hashed device id as ``demographicId``.
    @available(*, deprecated, message: "Please use demographicId instead.")
    public var nielsenId: String {
        demographicId
    }

    // MARK: AppMeter extensions


    /// The delivery diagnostics (AppMeter extension): `queued`, `queuedBytes`, `paused`,
    /// `consecutiveFailures`, `delivered`, `retried`, `recovered`, `dropped.rejected`,
    /// `dropped.rejectedSeconds` (the seconds the refused pings credited), `resentWithoutDescription`,
    /// `dropped.overflow`, `dropped.expired`, `corruptRecords`. Empty for an instance made with `init()`.
    public var diagnostics: [String: Any] {
        guard let instance = meter else { return [:] }
        return instance.diagnostics.dictionary.mapValues { $0 as Any }
    }

    /// Waits until every call made so far is processed and every ping built has been delivered
    /// or refused by the collector (or sending is paused). Calls made meanwhile, from any thread,
    /// go on being processed and checkpointed, even while the collector is unreachable.
    public func flush() async {
        await meter?.flush()
    }

    /// Waits until the census config has arrived and been applied (see `MeterInstance`).
    public func waitUntilConfigured() async {
        await meter?.waitUntilConfigured()
    }
}
