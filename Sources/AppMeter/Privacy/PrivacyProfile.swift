import Crypto
import Foundation

/// What an instance may say about the device and the user: the flavour, the OS-level and
/// app-level opt-out, and the identifiers (already hashed) it sends when the user is opted in.
/// Built once at instance creation; only the app-level choice changes later.
public struct PrivacyProfile: Sendable, Equatable {
    /// The SDK flavour in force.
    public let flavor: SDKFlavor
    /// The device limits ad tracking (global flavour).
    public let osOptOut: Bool
    /// The user's choice from the opt-out page (`userOptOut`).
    public var appOptOut: Bool
    /// SHA-256 hex of the device id (`c9`, `c1`): the ad id, else the vendor id. Nil for noID.
    public let hashedDeviceID: String?
    /// SHA-256 hex of the vendor id (`ve_id`). Nil for noID.
    public let hashedVendorID: String?
    /// The first-party id, when enabled (never for noID).
    public let firstPartyID: FirstPartyID?

    static let optOutKey = "optout"
    static let vendorIDKey = "vendorid"

    /// Opted out at OS level or app level; always for noID.
    public var optedOut: Bool { flavor == .noID || osOptOut || appOptOut }

    /// Reads the device identity, the stored choice and the first-party id for `appInfo`.
    static func load(appInfo: AppInfo, flavor: SDKFlavor, environment: MeterEnvironment) -> PrivacyProfile {
        guard flavor != .noID else {
            return PrivacyProfile(flavor: .noID, osOptOut: false, appOptOut: true, hashedDeviceID: nil,
                                  hashedVendorID: nil, firstPartyID: nil)
        }
        let storage = environment.storage
        let advertising = flavor == .global
            ? environment.identityProvider.advertisingIdentity()
            : AdvertisingIdentity(identifier: nil, limitsTracking: false)
        let vendorID = environment.identityProvider.platformVendorIdentifier() ?? storedVendorID(storage, environment)
        let deviceID = advertising.identifier ?? vendorID
        let fpidEnabled = appInfo.values["enableFpid"]?.lowercased() != "false"
        return PrivacyProfile(
            flavor: flavor,
            osOptOut: advertising.limitsTracking,
            appOptOut: storage.load(optOutKey) == Data("1".utf8),
            hashedDeviceID: sha256Hex(deviceID),
            hashedVendorID: sha256Hex(vendorID),
            firstPartyID: FirstPartyID.resolve(
                enabled: fpidEnabled, storage: storage, now: Int64(environment.clock.now()),
                identifiers: environment.identifiers))
    }

    /// Persists the app-level choice (not for noID, which stores nothing).
    func persistChoice(_ storage: MeterStorage) {
        guard flavor != .noID else { return }
        storage.save(Self.optOutKey, Data((appOptOut ? "1" : "0").utf8))
    }

    private static func storedVendorID(_ storage: MeterStorage, _ environment: MeterEnvironment) -> String {
        if let stored = storage.load(vendorIDKey).flatMap({ String(data: $0, encoding: .utf8) }), !stored.isEmpty {
            return stored
        }
        let id = environment.identifiers.newVendorID()
        storage.save(vendorIDKey, Data(id.utf8))
        return id
    }

    static func sha256Hex(_ value: String) -> String {
        SHA256.hash(data: Data(value.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    /// The identifier parameters of a ping: all empty and `uoo=true` when opted out.
    var pingIdentity: PingIdentity {
        guard !optedOut, let device = hashedDeviceID else { return PingIdentity(optedOut: optedOut) }
        return PingIdentity(
            optedOut: false, deviceID: device, vendorID: hashedVendorID ?? "",
            firstPartyID: firstPartyID?.id ?? "",
            firstPartyCreated: firstPartyID.map { String($0.createdAt) } ?? "",
            firstPartyAccessed: firstPartyID.map { String($0.accessedAt) } ?? "")
    }
}

/// The identifier fields of one ping.
struct PingIdentity: Sendable, Equatable {
    var optedOut: Bool
    var deviceID = ""
    var vendorID = ""
    var firstPartyID = ""
    var firstPartyCreated = ""
    var firstPartyAccessed = ""
}
