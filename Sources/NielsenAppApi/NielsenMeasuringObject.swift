public import AppMeter
public import Foundation

/// The class both facades inherit: the members of ``NielsenMeasuring`` written once, over the engine
/// instance. On Apple platforms it is an `NSObject` and each documented member carries the original
/// header's selector, so Objective-C calls the same objects Swift does (decision O1).
///
/// `@unchecked Sendable`: an `NSObject` on Linux is not known to the compiler as sendable; this
/// class adds only `let` stored properties of sendable types.
#if canImport(ObjectiveC)
@objc(NielsenMeasuringObject)
#endif
public class NielsenMeasuringObject: NSObject, NielsenMeasuring, @unchecked Sendable {
    // `final`: read on every playheadPosition; nothing overrides it.
    private final let instance: MeterInstance?

    init(instance: MeterInstance?) {
        self.instance = instance
        super.init()
    }

    /// Creates an object in the Initial state, which ignores every call and reports nothing.
    public override convenience init() {
        self.init(instance: nil)
    }

    /// The engine behind this object (nil for an object made with `init()`): its snapshot shows
    /// the lifecycle state, credited seconds and delivery counters.
    public final var meter: MeterInstance? { instance }

    public func appInBackground() {
        instance?.appInBackground()
    }

    public func appInForeground() {
        instance?.appInForeground()
    }

    #if canImport(ObjectiveC)
    @objc(updateOTT:)
    #endif
    public func updateOTT(_ ottInfo: Any) {
        guard let instance else { return }
        switch UntypedInput.lenientDictionary(from: ottInfo) {
        case .success(let parsed): instance.updateOTT(parsed.values)
        case .failure(let error): instance.reportInputError(.failedParseMetadata, "updateOTT: \(error); call ignored")
        }
    }

    #if canImport(ObjectiveC)
    @objc(trackViewability:)
    #endif
    public func trackViewability(_ data: [AnyHashable: Any]) {
        guard let instance else { return }
        let strings: [String: Any]
        switch UntypedInput.object(from: data) {
        case .success(let object): strings = object
        case .failure(let error):
            return instance.reportInputError(.failedParseMetadata, "trackViewability: \(error); call ignored")
        }
        switch ViewabilityTargetParser.parse(strings, containerId: instance.appInfo.containerTag) {
        case .success(let target): instance.trackViewability(target)
        case .failure(let rejection):
            instance.reportInputError(.failedParseMetadata, "trackViewability: \(rejection.reason); call ignored")
        }
    }

    #if canImport(ObjectiveC)
    @objc
    #endif
    public var appDisableApi: Bool {
        get { instance?.isDisabled ?? false }
        set { instance?.isDisabled = newValue }
    }

    #if canImport(ObjectiveC)
    @objc
    #endif
    public var debug: Bool {
        get { instance?.debug ?? false }
        set { instance?.debug = newValue }
    }

    #if canImport(ObjectiveC)
    @objc
    #endif
    public var meterVersion: String? {
        instance?.sdkVersion ?? MeterInstance.platformVersion
    }

    #if canImport(ObjectiveC)
    @objc
    #endif
    public var lastEventDict: [AnyHashable: Any]! {
        instance?.snapshot.lastEvent?.delegateDictionary
    }

    #if canImport(ObjectiveC)
    @objc
    #endif
    public var lastErrorDict: [AnyHashable: Any]! {
        instance?.snapshot.lastError?.delegateDictionary
    }

    #if canImport(ObjectiveC)
    @objc
    #endif
    public var optOutURL: String {
        instance?.optOutURL ?? ""
    }

    #if canImport(ObjectiveC)
    @objc
    #endif
    public var optOutStatus: Bool {
        instance?.optOutStatus ?? false
    }

    #if canImport(ObjectiveC)
    @objc(userOptOut:)
    #endif
    @discardableResult
    public func userOptOut(_ optOut: String?) -> Bool {
        guard let optOut else { return false }
        return instance?.userOptOut(optOut) ?? false
    }

    #if canImport(ObjectiveC)
    @objc
    #endif
    public var demographicId: String {
        instance?.demographicID ?? ""
    }

    #if canImport(ObjectiveC)
    @objc
    #endif
    public var firstPartyId: String {
        instance?.firstPartyID ?? ""
    }

    #if canImport(ObjectiveC)
    @objc
    #endif
    public var vendorId: String {
        instance?.vendorID ?? ""
    }

    #if canImport(ObjectiveC)
    @objc
    #endif
    @available(*, deprecated, message: "nielsenId is not used by the SDK anymore")
    public var nielsenId: String {
        demographicId
    }

    public var diagnostics: [String: Any] {
        guard let instance else { return [:] }
        return instance.diagnostics.dictionary.mapValues { $0 as Any }
    }

    public func flush() async {
        await instance?.flush()
    }

    public func waitUntilConfigured() async {
        await instance?.waitUntilConfigured()
    }
}
