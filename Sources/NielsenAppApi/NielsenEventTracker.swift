public import AppMeter
import Foundation

/// The simplified API (the simplified guide): one call, ``trackEvent(_:)-([AnyHashable:Any])``, with one dictionary
/// that says what happened (`event`), what to credit (`type`), the metadata, and the playhead. The
/// SDK puts the calls in order itself and measures with the same engine as ``NielsenAppApi``.
///
/// ```swift
/// let tracker = NielsenEventTracker(appInfo: ["appid": "P…", "appname": "My App",
///                                             "appversion": "1.0", "sfcode": "dcr"], delegate: self)
/// tracker?.trackEvent(["event": "playhead", "type": "content", "playheadPosition": "10",
///                      "metadata": ["content": contentMetadata, "ad": [:], "static": [:]]])
/// ```
#if canImport(ObjectiveC)
@objc(NielsenEventTracker)
#endif
public final class NielsenEventTracker: NielsenMeasuringObject, @unchecked Sendable {
    /// Creates a tracker, or returns nil when `appInfo` has no usable `appid` (or is not a JSON
    /// object or dictionary); the reason is logged at ERROR and told to `delegate` (error 1007 or 1004). Unlike ``NielsenAppApi``, trackers have
    /// no instance limit (the simplified guide, since 6.0.0). appInfo takes the keys of
    /// ``NielsenAppApi/init(appInfo:delegate:)``.
    #if canImport(ObjectiveC)
    @objc(initWithAppInfo:delegate:)
    #endif
    public convenience init?(appInfo: Any, delegate: (any NielsenEventTrackerDelegate)?) {
        self.init(appInfo: appInfo, delegate: delegate, environment: .live)
    }

    /// Creates a tracker with an injected environment (clock, transport, identifiers): the AppMeter
    /// extension used by tests and test rigs.
    public init?(appInfo: Any, delegate: (any NielsenEventTrackerDelegate)?, environment: MeterEnvironment) {
        let relay = DelegateRelay(notify: NielsenEventTrackerDelegateCall.notify, standIn: { NielsenEventTracker() })
        switch FacadeSetup.makeInstance(
            appInfo: appInfo, environment: environment, facade: "NielsenEventTracker", limitsInstances: false,
            events: relay.deliver) {
        case .success(let instance):
            super.init(instance: instance)
        case .failure(let failure):
            relay.reportFailedInit(failure, placeholder: NielsenEventTracker(), delegate: delegate)
            return nil
        }
        relay.attach(api: self, delegate: delegate)
    }

    /// Creates a tracker in the Initial state, which ignores every call: use
    /// ``init(appInfo:delegate:)``.
    public init() {
        super.init(instance: nil)
    }

    /// Reports what the player did, as a dictionary (``trackEvent(json:)`` takes a JSON object string):
    ///
    /// - `event`: `playhead` (metadata and the current playhead), `pause` (paused, interrupted or
    ///   in the background), `complete` (the content ended; for `static`, the next identical page
    ///   is a new view) or `adStop` (the ad ended).
    /// - `type`: `content`, `ad` or `static` — which of `metadata.content|ad|static` is credited.
    /// - `playheadPosition`: seconds from the start (ads restart at 0), or Unix seconds when live;
    ///   a string (`""` on pause and complete) or a number.
    /// - `id3Data` (DTVR), `optout` (`nielsenappsdk://0|1`).
    ///
    /// Metadata is taken when it changes, so the same dictionary may be sent every second. No
    /// event for 30 minutes while video plays counts as a pause. An unreadable event is reported
    /// to the delegate (error 2) and ignored.
    ///
    /// Takes `[AnyHashable: Any]`, as the original header imports (`NSDictionary`); a `[String: Any]`
    /// converts to it implicitly. A key that is not a string is reported (error 2) and the call ignored.
    #if canImport(ObjectiveC)
    @objc(trackEvent:)
    #endif
    public func trackEvent(_ data: [AnyHashable: Any]) {
        meter?.trackEvent(data)
    }

    /// ``trackEvent(_:)-([AnyHashable:Any])`` for a Swift `[String: Any]`, as the guide's Swift sample keeps its event:
    /// taken as it is, without the conversion to `[AnyHashable: Any]` each call would cost.
    public func trackEvent(_ data: [String: Any]) {
        meter?.trackEvent(data)
    }

    /// ``trackEvent(_:)-([AnyHashable:Any])`` with the event as a JSON object string; malformed JSON is error 2.
    public func trackEvent(json: String) {
        meter?.trackEvent(untyped: json)
    }
}
