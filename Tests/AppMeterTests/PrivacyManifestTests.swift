@testable import AppMeter
import Foundation
import Testing

/// Each flavour's privacy manifest declares what that build's code collects, and nothing the guides
/// forbid: the rules below tie each declaration to what in the SDK's sources requires it, and to the
/// guides' sentence. Code that starts using one of these without the manifest saying so fails here.
@Suite struct PrivacyManifestTests {
    /// What the code may use, and what the manifest must then say (Apple's categories).
    enum Requirement: Sendable, CustomStringConvertible {
        case collects(String)
        case accessesAPI(String)

        var description: String {
            switch self {
            case .collects(let type): "collected data type \(type)"
            case .accessesAPI(let category): "required-reason API \(category)"
            }
        }
    }

    /// Uses of these in any build's code require the declaration, in every flavour's manifest.
    static let rules: [(uses: String, requires: Requirement)] = [
        ("playheadPosition", .collects("NSPrivacyCollectedDataTypeProductInteraction")),
        ("CLLocation", .collects("NSPrivacyCollectedDataTypePreciseLocation")),
        ("UserDefaults", .accessesAPI("NSPrivacyAccessedAPICategoryUserDefaults")),
        ("systemUptime", .accessesAPI("NSPrivacyAccessedAPICategorySystemBootTime")),
        ("mach_absolute_time", .accessesAPI("NSPrivacyAccessedAPICategorySystemBootTime")),
        ("modificationDate", .accessesAPI("NSPrivacyAccessedAPICategoryFileTimestamp")),
        ("creationDate", .accessesAPI("NSPrivacyAccessedAPICategoryFileTimestamp")),
        ("attributesOfItem", .accessesAPI("NSPrivacyAccessedAPICategoryFileTimestamp")),
        ("volumeAvailableCapacity", .accessesAPI("NSPrivacyAccessedAPICategoryDiskSpace")),
        ("statfs", .accessesAPI("NSPrivacyAccessedAPICategoryDiskSpace")),
        ("activeInputModes", .accessesAPI("NSPrivacyAccessedAPICategoryActiveKeyboards")),
    ]

    /// What each flavour's build collects, with the code that collects it and the guides' words.
    struct Flavor: Sendable, CustomStringConvertible {
        let flavor: SDKFlavor
        /// The folder of its manifest under Sources/AppMeterPrivacy.
        let folder: String
        /// Reads the ad id (IDFA) when the user allows tracking: NSPrivacyTracking, a tracking device id.
        let readsAdID: Bool
        /// Sends a device id (the IDFA or the IDFV, hashed) and a first-party id.
        let sendsDeviceID: Bool
        /// The guides' sentence for this flavour.
        let guide: String
        var description: String { flavor.rawValue }
    }

    static let flavors: [Flavor] = [
        Flavor(flavor: .global, folder: "Global", readsAdID: true, sendsDeviceID: true,
               guide: "The Nielsen SDK will attempt to collect the IDFA (Id for Advertisers) on the device."),
        Flavor(flavor: .noAdFramework, folder: "NoAdFramework", readsAdID: false, sendsDeviceID: true,
               guide: "Without the Ad Framework, the Nielsen SDK cannot read the IDFA, so it will attempt to retrieve the IDFV."),
        Flavor(flavor: .noID, folder: "NoID", readsAdID: false, sendsDeviceID: false,
               guide: "This version of the Nielsen SDK is perfect for Kid apps, or where no ID is required."),
    ]

    /// The Italy and Poland pages: "Do not declare the Nielsen imrworldwide.com domain in the privacy manifest."
    static let noTrackingDomain = "Do not declare the Nielsen imrworldwide.com domain in the privacy manifest."

    static var root: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    static func manifest(of flavor: Flavor) throws -> [String: Any] {
        let url = root.appendingPathComponent("Sources/AppMeterPrivacy/\(flavor.folder)/PrivacyInfo.xcprivacy")
        let data = try Data(contentsOf: url)
        return try #require(try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any])
    }

    /// The SDK's code (not its comments), from the targets an app links.
    static func sdkCode() throws -> String {
        var code = ""
        for target in ["AppMeter", "NielsenAppApi", "MeterWire", "MeterContract", "MeasurementCore", "MeterInput"] {
            let folder = root.appendingPathComponent("Sources/\(target)")
            let files = FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String } ?? []
            for file in files where file.hasSuffix(".swift") {
                let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
                code += text.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }
                    .joined(separator: "\n")
            }
        }
        return code
    }

    static func declares(_ requirement: Requirement, in manifest: [String: Any]) -> Bool {
        switch requirement {
        case .collects(let type):
            return collected(type, in: manifest) != nil
        case .accessesAPI(let category):
            let accessed = manifest["NSPrivacyAccessedAPITypes"] as? [[String: Any]] ?? []
            return accessed.contains { $0["NSPrivacyAccessedAPIType"] as? String == category }
        }
    }

    static func collected(_ type: String, in manifest: [String: Any]) -> [String: Any]? {
        let collected = manifest["NSPrivacyCollectedDataTypes"] as? [[String: Any]] ?? []
        return collected.first { $0["NSPrivacyCollectedDataType"] as? String == type }
    }

    @Test func theBuildShipsItsFlavoursManifest() throws {
        let expected = SDKFlavor.advertisingIdentifierCompiledOut ? SDKFlavor.noID
            : SDKFlavor.adFrameworkCompiledOut ? .noAdFramework : .global
        #expect(PrivacyManifest.flavor == expected.rawValue)
        let shipped = try #require(PrivacyManifest.load())
        let source = try Self.manifest(of: try #require(Self.flavors.first { $0.flavor == expected }))
        #expect(NSDictionary(dictionary: shipped).isEqual(to: source))
    }

    @Test(arguments: flavors)
    func noManifestDeclaresATrackingDomain(_ flavor: Flavor) throws {
        let manifest = try Self.manifest(of: flavor)
        let domains = manifest["NSPrivacyTrackingDomains"] as? [String]
        #expect(domains == [], "\(Self.noTrackingDomain)")
    }

    @Test(arguments: flavors)
    func eachManifestSaysWhatItsFlavourCollects(_ flavor: Flavor) throws {
        let manifest = try Self.manifest(of: flavor)
        let code = try Self.sdkCode()
        // The code behind each flavour's identifiers: the ad id only where the ad framework is
        // linked, the vendor id (or one the SDK generates) and the first-party id except for noID.
        #expect(code.contains("#if canImport(AdSupport) && !APPMETER_NO_AD_FRAMEWORK"))
        #expect(code.contains("advertisingIdentifier") && code.contains("identifierForVendor"))
        #expect(code.contains("guard flavor != .noID"), "noID sends no identifier (PrivacyProfile.load)")

        #expect(manifest["NSPrivacyTracking"] as? Bool == flavor.readsAdID, "\(flavor.guide)")
        let deviceID = Self.collected("NSPrivacyCollectedDataTypeDeviceID", in: manifest)
        #expect((deviceID != nil) == flavor.sendsDeviceID, "\(flavor.guide)")
        if let deviceID {
            #expect(deviceID["NSPrivacyCollectedDataTypeTracking"] as? Bool == flavor.readsAdID)
            #expect(deviceID["NSPrivacyCollectedDataTypeLinked"] as? Bool == false, "sent as SHA-256 hex, linked to no account")
        }
        for entry in manifest["NSPrivacyCollectedDataTypes"] as? [[String: Any]] ?? [] {
            #expect(entry["NSPrivacyCollectedDataTypeLinked"] is Bool)
            #expect(entry["NSPrivacyCollectedDataTypeTracking"] is Bool)
            #expect((entry["NSPrivacyCollectedDataTypePurposes"] as? [String])?.isEmpty == false)
            #expect(flavor.readsAdID || entry["NSPrivacyCollectedDataTypeTracking"] as? Bool == false,
                    "a flavour without the ad id tracks nothing")
        }
    }

    @Test(arguments: flavors)
    func everyUseTheCodeMakesIsDeclared(_ flavor: Flavor) throws {
        let manifest = try Self.manifest(of: flavor)
        let code = try Self.sdkCode()
        #expect(code.contains("playheadPosition"), "the rules would check nothing if the sources were not read")
        for rule in Self.rules where code.contains(rule.uses) {
            #expect(Self.declares(rule.requires, in: manifest), "the code uses \(rule.uses): declare \(rule.requires)")
        }
    }

    @Test func aBuildWithoutTheAdFrameworkMeasuresGlobalAsNoAdFramework() {
        #expect(SDKFlavor.inForce(required: nil, requested: .global, fallback: .global, compiledOut: false,
                                  adFrameworkCompiledOut: true) == .noAdFramework)
        #expect(SDKFlavor.inForce(required: nil, requested: .noID, fallback: .global, compiledOut: false,
                                  adFrameworkCompiledOut: true) == .noID)
        #expect(SDKFlavor.inForce(required: nil, requested: nil, fallback: .global, compiledOut: false,
                                  adFrameworkCompiledOut: false) == .global)
        #expect(SDKFlavor.inForce(required: nil, requested: .global, fallback: .global, compiledOut: true,
                                  adFrameworkCompiledOut: true) == .noID)
    }
}
