/// The device's advertising identity, read once when an instance is created (as the guides
/// require: "When the SDK initializes, it checks the status of the ATTrackingManager").
public struct AdvertisingIdentity: Sendable, Equatable {
    /// The advertising identifier, when the platform has one and the user allows it.
    public var identifier: String?
    /// True when the user limits ad tracking (ATT not authorised, or Limit Ad Tracking on):
    /// an OS-level opt-out.
    public var limitsTracking: Bool

    /// Creates an identity.
    public init(identifier: String?, limitsTracking: Bool) {
        self.identifier = identifier
        self.limitsTracking = limitsTracking
    }
}

/// Reads device identifiers from the platform. The Apple implementation uses AdSupport,
/// AppTrackingTransparency and UIKit where they exist; elsewhere there is no ad id and no
/// tracking limit, and the vendor id is generated and stored by the SDK.
public protocol DeviceIdentityProvider: Sendable {
    /// The ad identity (global flavour only).
    func advertisingIdentity() -> AdvertisingIdentity
    /// The platform's vendor id (IDFV), or nil when the platform has none.
    func platformVendorIdentifier() -> String?
}

/// A fixed identity, for tests and for platforms configured by the app.
public struct StaticIdentityProvider: DeviceIdentityProvider {
    /// What ``advertisingIdentity()`` returns.
    public var advertising: AdvertisingIdentity
    /// What ``platformVendorIdentifier()`` returns.
    public var vendorID: String?

    /// Creates a provider.
    public init(advertising: AdvertisingIdentity, vendorID: String?) {
        self.advertising = advertising
        self.vendorID = vendorID
    }

    public func advertisingIdentity() -> AdvertisingIdentity { advertising }
    public func platformVendorIdentifier() -> String? { vendorID }
}
