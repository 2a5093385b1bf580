import Crypto
import Foundation

/// What an instance may say about the device and the user: the flavour, the OS-level and
/// app-level opt-out, and the identifiers (already hashed) it sends when the user is opted in.
/// Built once at instance creation; only the app-level choice changes later.
package struct PrivacyProfile: Sendable, Equatable {
    /// The SDK flavour in force.
    package let flavor: SDKFlavor
    /// The device limits ad tracking (global flavour).
    package let osOptOut: Bool
    /// The user's choice from the opt-out page (`userOptOut`).
    package var appOptOut: Bool
    /// SHA-256 hex of the device id (`c9`, `c1`): the ad id, else the vendor id. Nil for noID.
    package let hashedDeviceID: String?
    /// SHA-256 hex of the vendor id (`ve_id`). Nil for noID.
    package let hashedVendorID: String?
    /// The first-party id, when enabled (never for noID).
    package let firstPartyID: FirstPartyID?

    static let optOutKey = "optout"
    static let vendorIDKey = "vendorid"

    /// Opted out at OS level or app level; always for noID.
    package var optedOut: Bool { flavor == .noID || osOptOut || appOptOut }

    /// Reads the device identity, the stored choice and the first-party id for `appInfo`;
    /// storage failures are added to `issues` (the profile then holds what is known in memory).
    static func load(
        appInfo: AppInfo, flavor: SDKFlavor, environment: MeterEnvironment, issues: inout [StorageIssue]
    ) -> PrivacyProfile {
        guard flavor != .noID else {
            return PrivacyProfile(flavor: .noID, osOptOut: false, appOptOut: true, hashedDeviceID: nil,
                                  hashedVendorID: nil, firstPartyID: nil)
        }
        let storage = environment.storage
        let advertising = flavor == .global
            ? environment.identityProvider.advertisingIdentity()
            : AdvertisingIdentity(identifier: nil, limitsTracking: false)
        let vendorID = environment.identityProvider.platformVendorIdentifier()
            ?? storedVendorID(storage, environment, issues: &issues)
        let deviceID = advertising.identifier ?? vendorID
        let fpidEnabled = appInfo.firstPartyIDEnabled
        var appOptOut = false
        do {
            appOptOut = try storage.load(optOutKey) == Data("1".utf8)
        } catch {
            // Reading failed: measure as opted out rather than send identifiers the user may have refused.
            appOptOut = true
            issues.append(.read("the user's opt-out choice", error, instead: "measuring as opted out"))
        }
        return PrivacyProfile(
            flavor: flavor,
            osOptOut: advertising.limitsTracking,
            appOptOut: appOptOut,
            hashedDeviceID: sha256Hex(deviceID),
            hashedVendorID: sha256Hex(vendorID),
            firstPartyID: FirstPartyID.resolve(
                enabled: fpidEnabled, storage: storage, now: environment.clock.now().unixSeconds,
                identifiers: environment.identifiers, issues: &issues))
    }

    /// Whether the app-level choice is kept across launches (noID stores nothing).
    var persistsChoice: Bool { flavor != .noID }

    /// The stored form of an app-level choice.
    static func storedChoice(_ optOut: Bool) -> Data { Data((optOut ? "1" : "0").utf8) }

    private static func storedVendorID(
        _ storage: any MeterStorage, _ environment: MeterEnvironment, issues: inout [StorageIssue]
    ) -> String {
        do {
            if let stored = try storage.load(vendorIDKey).flatMap({ String(data: $0, encoding: .utf8) }), !stored.isEmpty {
                return stored
            }
        } catch {
            issues.append(.read("the vendor id", error, instead: "a new one is used"))
        }
        let id = environment.identifiers.newVendorID()
        do { try storage.save(vendorIDKey, Data(id.utf8)) } catch {
            issues.append(.write("the vendor id", error, instead: "it is used for this launch only"))
        }
        return id
    }

    static func sha256Hex(_ value: String) -> String {
        SHA256.hash(data: Data(value.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    /// The identifier parameters of a ping: all empty and `uoo=true` when opted out.
    package var pingIdentity: PingIdentity {
        guard !optedOut, let device = hashedDeviceID else { return PingIdentity(optedOut: optedOut) }
        return PingIdentity(
            optedOut: false, deviceID: device, vendorID: hashedVendorID ?? "",
            firstPartyID: firstPartyID?.id ?? "",
            firstPartyCreated: firstPartyID.map { String($0.createdAt) } ?? "",
            firstPartyAccessed: firstPartyID.map { String($0.accessedAt) } ?? "")
    }
}
