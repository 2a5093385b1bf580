@testable import AppMeter
import Foundation
import Testing

/// The privacy manifest declares what the code collects and contacts: each rule below names what
/// in the SDK's sources requires a declaration, and the declaration it requires. Code that starts
/// using one of these without the manifest saying so fails here.
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

    static let rules: [(uses: String, requires: Requirement)] = [
        ("advertisingIdentifier", .collects("NSPrivacyCollectedDataTypeDeviceID")),
        ("identifierForVendor", .collects("NSPrivacyCollectedDataTypeDeviceID")),
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

    /// The SDK's code (not its comments), from the targets an app links.
    static func sdkCode() throws -> String {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        var code = ""
        for target in ["AppMeter", "NielsenAppApi", "MeterWire"] {
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
            let collected = manifest["NSPrivacyCollectedDataTypes"] as? [[String: Any]] ?? []
            return collected.contains { $0["NSPrivacyCollectedDataType"] as? String == type }
        case .accessesAPI(let category):
            let accessed = manifest["NSPrivacyAccessedAPITypes"] as? [[String: Any]] ?? []
            return accessed.contains { $0["NSPrivacyAccessedAPIType"] as? String == category }
        }
    }

    @Test func theManifestShipsWithTheSDK() throws {
        let manifest = try #require(PrivacyManifest.load())
        #expect(manifest["NSPrivacyTracking"] as? Bool == true)
    }

    @Test func everyUseTheCodeMakesIsDeclared() throws {
        let manifest = try #require(PrivacyManifest.load())
        let code = try Self.sdkCode()
        #expect(code.contains("advertisingIdentifier"), "the rules would check nothing if the sources were not read")
        for rule in Self.rules where code.contains(rule.uses) {
            #expect(Self.declares(rule.requires, in: manifest), "the code uses \(rule.uses): declare \(rule.requires)")
        }
    }

    @Test func theCollectorsDomainIsATrackingDomain() throws {
        let manifest = try #require(PrivacyManifest.load())
        let domains = manifest["NSPrivacyTrackingDomains"] as? [String] ?? []
        for sfcode in ["dcr", "ire", "it", "pl"] {
            let appInfo = try AppInfo.parse(["appid": "P00000000-0000-4000-8000-000000000001", "sfcode": sfcode]).get()
            let host = try #require(appInfo.collectorURL.host)
            #expect(domains.contains { host == $0 || host.hasSuffix("." + $0) }, "\(host) is not declared")
        }
        #expect(domains.contains { OptOutPage.url(flavor: .global, market: .generic, deviceType: "mobile").contains($0) })
    }

    @Test func eachCollectedTypeSaysWhyAndWhetherItTracks() throws {
        let manifest = try #require(PrivacyManifest.load())
        for entry in manifest["NSPrivacyCollectedDataTypes"] as? [[String: Any]] ?? [] {
            #expect(entry["NSPrivacyCollectedDataTypeLinked"] is Bool)
            #expect(entry["NSPrivacyCollectedDataTypeTracking"] is Bool)
            #expect((entry["NSPrivacyCollectedDataTypePurposes"] as? [String])?.isEmpty == false)
        }
    }
}
