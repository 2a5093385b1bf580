import AppMeter
import Foundation
import NielsenAppApi
import Testing

/// What leaves the device, for every flavour × opt state × market: the identifier fields of the
/// captured ping URLs.
@Suite struct PrivacyWireTests {
    static let device = "334ad763911a9511e2d1a849c22bcbda94eadf4f7ba15ad6d1cc2a9855e461d5"  // SHA-256 of AD-ID-0001
    static let vendor = "bca320c1ed9c8176b2a1d80e8b7c4704791b2e07fa6af1936899d0e886819254"  // SHA-256 of VENDOR-0001
    static let identifierFields = ["c9", "enc", "c1", "ve_id", "fp_id", "fp_cr_tm", "fp_acc_tm", "uoo"]

    /// The fields expected on the wire, worked out from docs/privacy.md.
    static func expectedFields(flavor: SDKFlavor, optedOutByUser: Bool, sfcode: String) -> [String: String] {
        let optedOut = flavor == .noID || sfcode == "ire" || optedOutByUser
        if optedOut {
            return ["c9": "devid,", "enc": "", "c1": "nuid,", "ve_id": "", "fp_id": "", "fp_cr_tm": "",
                    "fp_acc_tm": "", "uoo": "true"]
        }
        let deviceID = flavor == .global ? device : vendor
        return ["c9": "devid,\(deviceID)", "enc": "true", "c1": "nuid,\(deviceID)", "ve_id": vendor,
                "fp_id": "fpid1", "fp_cr_tm": "1700000000", "fp_acc_tm": "1700000000", "uoo": ""]
    }

    static let matrix: [(SDKFlavor, Bool, String)] = SDKFlavor.allCases.flatMap { flavor in
        [false, true].flatMap { out in ["dcr", "ire", "pl"].map { (flavor, out, $0) } }
    }

    @Test(arguments: matrix)
    func identifierFieldsOnTheWire(_ flavor: SDKFlavor, _ optedOut: Bool, _ sfcode: String) async {
        let meter = MeterHarness(appInfo: MeterHarness.appInfo(sfcode: sfcode), flavor: flavor)
        if optedOut { #expect(meter.api.userOptOut("nielsenappsdk://1")) }
        meter.api.play()
        meter.api.loadMetadata(Fixtures.content())
        meter.play(0...70)
        meter.api.end()
        let pings = await meter.pings()
        #expect(pings.count == 3)
        // A build with the NoAdvertisingIdentifier trait is noID whatever is asked (.ci/run runs this
        // test in that build too).
        let inForce = SDKFlavor.advertisingIdentifierCompiledOut ? .noID : flavor
        let expected = Self.expectedFields(flavor: inForce, optedOutByUser: optedOut, sfcode: sfcode)
        for ping in pings {
            let actual = Dictionary(uniqueKeysWithValues: Self.identifierFields.map { ($0, ping[$0] ?? "<absent>") })
            #expect(actual == expected, "\(flavor) optedOut=\(optedOut) \(sfcode)")
        }
        #expect(meter.api.optOutStatus == (expected["uoo"] == "true"))
        #expect(await meter.creditedOnTheWire() == ["content/vid345-67483": 70])  // opted out is still measured
    }

    @Test func limitedAdTrackingIsAnOSLevelOptOutInTheGlobalFlavourOnly() async {
        let limited = StaticIdentityProvider(
            advertising: AdvertisingIdentity(identifier: nil, limitsTracking: true), vendorID: "VENDOR-0001")
        for (flavor, optedOut) in [(SDKFlavor.global, true), (.noAdFramework, false)] {
            let meter = MeterHarness(identity: limited, flavor: flavor)
            #expect(meter.api.optOutStatus == optedOut)
            meter.api.userOptOut("nielsenappsdk://0")           // the app cannot override the OS
            #expect(meter.api.optOutStatus == optedOut)
            meter.api.loadMetadata(Fixtures.content())
            meter.play(0...1)
            #expect(await meter.pings().first?["uoo"] == (optedOut ? "true" : ""))
        }
    }

    @Test func globalWithoutAnAdIDFallsBackToTheVendorID() async {
        let noAdID = StaticIdentityProvider(
            advertising: AdvertisingIdentity(identifier: nil, limitsTracking: false), vendorID: "VENDOR-0001")
        let meter = MeterHarness(identity: noAdID, flavor: .global)
        meter.api.loadMetadata(Fixtures.content())
        meter.play(0...1)
        #expect(await meter.pings().first?["c9"] == "devid,\(Self.vendor)")
    }

    @Test func optingOutMidSessionSplitsTheCreditAtTheChoice() async {
        let meter = MeterHarness()
        meter.api.play()
        meter.api.loadMetadata(Fixtures.content())
        meter.play(0...30)
        meter.api.userOptOut("nielsenappsdk://1")
        meter.play(31...50)
        meter.api.userOptOut("nielsenappsdk://0")
        meter.play(51...55)
        meter.api.end()
        let pings = await meter.pings()
        #expect(pings.map { "\($0.summary) uoo=\($0["uoo"]!) c9=\($0["c9"]!.count > 6 ? "id" : "none")" } == [
            "view content/vid345-67483 0 uoo= c9=id",
            "timer content/vid345-67483 30 uoo= c9=id",
            "timer content/vid345-67483 20 uoo=true c9=none",
            "timer content/vid345-67483 5 uoo= c9=id",
        ])
    }

    @Test(arguments: [
        ("nielsenappsdk://1", true), ("nielsenappsdk://0", true), (" nielsenappsdk://1\n", true),
        ("nielsen://close", false), ("nielsenappsdk://2", false), ("https://priv-policy.imrworldwide.com/", false),
        ("", false), ("NIELSENAPPSDK://1", false),
    ])
    func userOptOutConsumesOnlyTheTwoCommands(_ command: String, _ consumed: Bool) {
        let meter = MeterHarness()
        #expect(meter.api.userOptOut(command) == consumed)
        #expect(meter.api.optOutStatus == (consumed && command.contains("://1")))
    }

    @Test func theChoiceIsKeptAcrossInstances() async {
        let storage = InMemoryStorage()
        let transport = RecordingTransport()
        let first = MeterHarness(storage: storage, transport: transport)
        first.api.userOptOut("nielsenappsdk://1")
        await first.api.flush()
        let second = MeterHarness(storage: storage, transport: transport)
        #expect(second.api.optOutStatus)
        second.api.userOptOut("nielsenappsdk://0")
        await second.api.flush()
        #expect(MeterHarness(storage: storage, transport: transport).api.optOutStatus == false)
    }

    @Test func theChoiceIsKeptOnDiskInTheStorageFolder() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("appmeter-\(UUID().uuidString)").path
        let appInfo = MeterHarness.appInfo(extra: ["nol_storageDir": folder])
        let first = MeterHarness(appInfo: appInfo)
        first.api.userOptOut("nielsenappsdk://1")
        await first.api.flush()
        #expect(FileManager.default.fileExists(atPath: folder + "/optout"))
        #expect(MeterHarness(appInfo: MeterHarness.appInfo(extra: ["nol_storageDir": folder])).api.optOutStatus)
        try FileManager.default.removeItem(atPath: folder)
    }

    @Test func noIDNeverStoresAnything() async {
        let meter = MeterHarness(flavor: .noID)
        #expect(meter.api.optOutStatus)
        #expect(meter.api.userOptOut("nielsenappsdk://0"))   // consumed, but noID stays opted out
        #expect(meter.api.optOutStatus)
        meter.api.play()
        meter.api.loadMetadata(Fixtures.content())
        meter.play(0...5)
        meter.api.end()
        await meter.api.flush()
        #expect(meter.storage.keys.isEmpty)
        #expect(meter.api.demographicId == "" && meter.api.vendorId == "" && meter.api.firstPartyId == "")
    }

    @Test func irelandIsNoIDWhateverTheAppAsks() {
        let meter = MeterHarness(appInfo: MeterHarness.appInfo(sfcode: "ire", extra: ["nol_sdkFlavor": "global"]))
        #expect(meter.api.meter?.flavor == .noID)
        #expect(meter.api.optOutStatus)
    }

    @Test func identifierPropertiesMatchTheWire() async {
        let meter = MeterHarness(flavor: .global)
        #expect(meter.api.demographicId == Self.device)
        #expect(meter.api.vendorId == Self.vendor)
        #expect(meter.api.firstPartyId == "fpid1")
        meter.api.userOptOut("nielsenappsdk://1")
        #expect(meter.api.demographicId == "" && meter.api.vendorId == "" && meter.api.firstPartyId == "")
    }

    @Test(arguments: [
        (SDKFlavor.global, "dcr", "https://priv-policy.imrworldwide.com/priv/mobile/us/en/optout.html"),
        (.noAdFramework, "dcr", "https://priv-policy.imrworldwide.com/priv/mobile/us/en/optout_legacy.html"),
        (.noID, "dcr", "https://priv-policy.imrworldwide.com/priv/mobile/us/en/optout.html"),
        (.global, "pl", "https://priv-policy.imrworldwide.com/priv/mobile/pl/pl/optout.html"),
        (.noAdFramework, "it", "https://priv-policy.imrworldwide.com/priv/mobile/it/it/optout_legacy.html"),
        (.global, "ire", "https://priv-policy.imrworldwide.com/priv/mobile/ie/en/optout.html"),
    ])
    func optOutURL(_ flavor: SDKFlavor, _ sfcode: String, _ url: String) {
        #expect(MeterHarness(appInfo: MeterHarness.appInfo(sfcode: sfcode), flavor: flavor).api.optOutURL == url)
    }

    @Test func theDocumentedOptOutFlowWorksFromThePublicAPIAlone() async {
        let meter = MeterHarness(flavor: .noAdFramework)
        let page = meter.api.optOutURL                       // 1. load this page in a web view
        #expect(page.hasSuffix("optout_legacy.html"))
        let navigations = ["https://priv-policy.imrworldwide.com/priv/mobile/us/en/more.html", "nielsenappsdk://1", kNielsenWebClose]
        var closed = false
        for url in navigations {                             // 2. the web view's navigation delegate
            if url == kNielsenWebClose { closed = true; break }
            _ = meter.api.userOptOut(url)
        }
        #expect(closed && meter.api.optOutStatus)
        meter.api.loadMetadata(Fixtures.content())
        meter.play(0...1)
        #expect(await meter.pings().first?["uoo"] == "true")
    }
}

/// The first-party id: created, reused, regenerated after 180 days, wiped when disabled.
@Suite struct FirstPartyIDTests {
    @Test func reusedWithItsAccessTimeUpdatedThenRegeneratedAfter180Days() async {
        let storage = InMemoryStorage()
        let transport = RecordingTransport()
        let day: Double = 86_400
        let first = MeterHarness(storage: storage, startTime: 1_700_000_000, transport: transport)
        #expect(first.api.firstPartyId == "fpid1")
        let later = MeterHarness(storage: storage, startTime: 1_700_000_000 + 179 * day, transport: transport)
        later.api.loadMetadata(Fixtures.content())
        later.play(0...1)
        let ping = await later.pings().first!
        #expect(ping["fp_id"] == "fpid1")
        #expect(ping["fp_cr_tm"] == "1700000000")
        #expect(ping["fp_acc_tm"] == String(Int(1_700_000_000 + 179 * day)))
        let expired = MeterHarness(storage: storage, startTime: 1_700_000_000 + 180 * day, transport: transport)
        #expect(expired.api.firstPartyId == "fpid1")  // a new source: its first id is fpid1 too…
        let stored = try! JSONDecoder().decode(FirstPartyID.self, from: storage.load("fpid")!)
        #expect(stored.createdAt == Int64(1_700_000_000 + 180 * day))  // …but created anew
    }

    @Test func enableFpidFalseWipesItAndBlanksTheFields() async {
        let storage = InMemoryStorage()
        let transport = RecordingTransport()
        let first = MeterHarness(storage: storage, transport: transport)
        #expect(storage.load("fpid") != nil)
        let meter = MeterHarness(
            appInfo: MeterHarness.appInfo(extra: ["enableFpid": "false"]), storage: storage, transport: transport)
        _ = first
        #expect(storage.load("fpid") == nil)
        meter.api.loadMetadata(Fixtures.content())
        meter.play(0...1)
        let ping = await meter.pings().first!
        #expect(ping["fp_id"] == "" && ping["fp_cr_tm"] == "" && ping["fp_acc_tm"] == "")
        #expect(ping["c9"] == "devid,\(PrivacyWireTests.device)")  // other identifiers unaffected
    }

    /// A typo in these flags is reported (1004); the first-party id stays on, the flavour is the build's.
    @Test func aBadEnableFpidOrFlavourValueFallsBackAndIsReported() async {
        let errors = ErrorCollector()
        let meter = MeterHarness(appInfo: MeterHarness.appInfo(extra: ["enableFpid": "yes", "nol_sdkFlavor": "kids"]),
                                 delegate: errors)
        meter.api.loadMetadata(Fixtures.content())
        meter.play(0...1)
        let ping = await meter.pings().first!
        #expect(ping["fp_id"] == "fpid1")
        #expect(meter.api.meter!.flavor == .global)
        #expect(errors.codes == [1004, 1004])
    }
}

/// The platform identity on Linux: no ad id, a vendor id generated once and kept.
@Suite struct PlatformIdentityTests {
    @Test func linuxHasNoAdIDAndAStoredGeneratedVendorID() async {
        #if !canImport(Darwin)
        let provider = PlatformIdentityProvider()
        #expect(provider.advertisingIdentity() == AdvertisingIdentity(identifier: nil, limitsTracking: false))
        #expect(provider.platformVendorIdentifier() == nil)
        let storage = InMemoryStorage()
        let transport = RecordingTransport()
        let first = MeterHarness(storage: storage, identity: provider, transport: transport)
        let second = MeterHarness(storage: storage, identity: provider, transport: transport)
        #expect(first.api.demographicId.count == 64)
        #expect(first.api.demographicId == second.api.demographicId)
        #expect(storage.keys.contains("vendorid"))
        #endif
    }
}
