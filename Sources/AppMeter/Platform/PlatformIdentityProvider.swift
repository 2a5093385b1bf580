import Foundation
// The NoAdFramework and NoAdvertisingIdentifier traits (the guides' No Ad Framework and noID
// flavours as builds) link neither.
#if canImport(AdSupport) && !APPMETER_NO_AD_FRAMEWORK
import AdSupport
#endif
#if canImport(AppTrackingTransparency) && !APPMETER_NO_AD_FRAMEWORK
import AppTrackingTransparency
#endif
#if canImport(UIKit)
import UIKit
#endif

/// The platform's identity: the IDFA and the ATT / Limit Ad Tracking status where AdSupport
/// exists, the IDFV where UIKit exists; on Linux no ad id, no tracking limit and no platform vendor
/// id (the SDK then generates and stores one).
public struct PlatformIdentityProvider: DeviceIdentityProvider {
    /// Creates the provider.
    public init() {}

    public func advertisingIdentity() -> AdvertisingIdentity {
        #if canImport(AdSupport) && !APPMETER_NO_AD_FRAMEWORK
        let limited: Bool
        #if canImport(AppTrackingTransparency) && !APPMETER_NO_AD_FRAMEWORK
        if #available(iOS 14, tvOS 14, macOS 11, *) {
            limited = ATTrackingManager.trackingAuthorizationStatus != .authorized
        } else {
            limited = !ASIdentifierManager.shared().isAdvertisingTrackingEnabled
        }
        #else
        limited = !ASIdentifierManager.shared().isAdvertisingTrackingEnabled
        #endif
        let id = ASIdentifierManager.shared().advertisingIdentifier.uuidString
        return AdvertisingIdentity(identifier: limited ? nil : id, limitsTracking: limited)
        #else
        return AdvertisingIdentity(identifier: nil, limitsTracking: false)
        #endif
    }

    public func platformVendorIdentifier() -> String? {
        #if canImport(UIKit) && !os(watchOS)
        // UIDevice is main-actor isolated, and an SDK must not block on the main queue: off the
        // main thread the SDK uses its own stored vendor id instead (docs/privacy.md).
        guard Thread.isMainThread else { return nil }
        return MainActor.assumeIsolated { UIDevice.current.identifierForVendor?.uuidString }
        #else
        return nil
        #endif
    }
}
