public import AppMeter

/// What ``NielsenAppApi`` and ``NielsenEventTracker`` share besides their measurement calls: the
/// documented properties (kill switch, debug, version, last event and error, opt-out, identifiers)
/// and AppMeter's diagnostics, all read from the engine instance behind the object. Both classes
/// get them from ``NielsenMeasuringObject``; code that takes either uses `any NielsenMeasuring`.
public protocol NielsenMeasuring: AnyObject {
    /// The engine behind this object (nil for an object made with `init()`, which measures nothing).
    var meter: MeterInstance? { get }

    /// Tells the SDK the app went to the background (named like the Android
    /// `AppLaunchMeasurementManager` call the guides show). On Apple platforms the SDK observes
    /// UIKit's notifications itself; call this on Linux or from a custom lifecycle. A static page's
    /// time pauses and video without picture-in-picture is interrupted.
    func appInBackground()

    /// Tells the SDK the app came back to the foreground; after more than 30 minutes in the
    /// background a new viewing session starts.
    func appInForeground()

    /// Reports a change of OTT device (AirPlay, mirroring, casting): a dictionary or JSON object
    /// string with `ottStatus` (`"0"`/`"1"`), `ottType` (`airplay`, `mirroring`, `casting`,
    /// `other`), and optionally `ottDevice`, `ottDeviceModel`, `ottDeviceID`. Pings from then on
    /// carry `c71=ottflg,1` and `c72=otttyp,<type>`; the credit before the change goes out first.
    /// Without a valid `ottStatus` the call is reported (error 2) and ignored.
    func updateOTT(_ ottInfo: Any)

    /// Starts viewability and audibility measurement of the player view (the simplified API's
    /// guide): `viewTag` (the player view's tag; default appInfo `containerId`), optionally
    /// `viewContainer` (the tag of a view that clips it) and `friendlyObstructions` (tags). From then
    /// on each measurement ping is followed by a viewability ping (a POST with the `invs`, `inau`,
    /// `inss`, `invp`, `ines` series). Bad input is error 2; no provider on the platform, error 6.
    ///
    /// Takes `[AnyHashable: Any]`, as the original header imports (`NSDictionary`); a `[String: Any]`
    /// converts to it implicitly.
    func trackViewability(_ data: [AnyHashable: Any])

    /// The kill switch: `true` disables measurement (nothing is measured or built while
    /// disabled); `false` enables it again.
    var appDisableApi: Bool { get set }

    /// Turns verbose (DEBUG) logging on or off at run time.
    var debug: Bool { get set }

    /// The SDK version, e.g. `ai.1.0.0` (`al.` on Linux). Optional, as the original header
    /// declares it (`nullable`); it is never nil.
    var meterVersion: String? { get }

    /// The last event (`eventCode`, `eventDescription`, `timestamp`), or nil before any.
    var lastEventDict: [AnyHashable: Any]! { get }

    /// The last error (`eventCode`, `eventDescription`, `timestamp`), or nil before any.
    var lastErrorDict: [AnyHashable: Any]! { get }

    /// The opt-out page to load in a web view: it explains the device setting (global flavour) or
    /// lets the user choose (no-ad-framework flavour), and navigates to `nielsenappsdk://1` (out),
    /// `nielsenappsdk://0` (in) or ``kNielsenWebClose``. Empty for an instance made with `init()`.
    var optOutURL: String { get }

    /// True when the user is opted out, at OS level (ad tracking limited) or app level
    /// (``userOptOut(_:)``); always true for the noID flavour. Opted-out users are still measured:
    /// their pings carry `uoo=true` and no identifier.
    var optOutStatus: Bool { get }

    /// Passes a URL the opt-out web view navigated to. Returns true when it was the opt-out
    /// (`nielsenappsdk://1`) or opt-in (`nielsenappsdk://0`) command, which the SDK records and keeps
    /// across launches (the app need not store it); false for any other string and for nil (the
    /// guides pass `navigationAction.request.url?.absoluteString` as it is).
    @discardableResult
    func userOptOut(_ optOut: String?) -> Bool

    /// The device id sent in pings (SHA-256 hex), or an empty string when opted out or noID.
    var demographicId: String { get }

    /// The first-party id sent in pings, or an empty string when opted out, disabled
    /// (`enableFpid` = `"false"`) or noID.
    var firstPartyId: String { get }

    /// The vendor id sent in pings (SHA-256 hex), or an empty string when opted out or noID.
    var vendorId: String { get }

    /// The Nielsen id: the same hashed device id as ``demographicId``.
    @available(*, deprecated, message: "Please use demographicId instead.")
    var nielsenId: String { get }

    /// The delivery diagnostics (AppMeter extension): `queued`, `queuedBytes`, `paused`,
    /// `consecutiveFailures`, `delivered`, `retried`, `recovered`, `dropped.rejected`,
    /// `dropped.rejectedSeconds` (the seconds the refused pings credited), `resentWithoutDescription`,
    /// `dropped.overflow`, `dropped.expired`, `corruptRecords`. Empty for an instance made with `init()`.
    var diagnostics: [String: Any] { get }

    /// Waits until every call made so far is processed and every ping built has been delivered
    /// or refused by the collector (or sending is paused). Calls made meanwhile, from any thread,
    /// go on being processed and checkpointed, even while the collector is unreachable.
    func flush() async

    /// Waits until the census config has arrived and been applied (see `MeterInstance`).
    func waitUntilConfigured() async
}
