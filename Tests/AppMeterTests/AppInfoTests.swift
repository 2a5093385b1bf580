import AppMeter
import NielsenAppApi
import Testing

@Suite struct AppInfoTests {
    static let valid = ["appid": "TA1B2C3D4-0000-4000-8000-00000000000F", "appname": "A", "appversion": "1"]

    @Test(arguments: [
        ([:], MeterEventCode.emptyAppID),
        (["appname": "A", "appversion": "1", "appid": ""], .emptyAppID),
        (["appname": "A", "appversion": "1", "appid": "PXXXXXXX-XXXX-XXXX-XXXX-XXXXXXXXXXXX"], .emptyAppID),
        (["appname": "A", "appversion": "1", "appid": "X12345678-ABCD-4EF0-9123-456789ABCDEF"], .emptyAppID),
    ] as [([String: String], MeterEventCode)])
    func onlyAnUnusableAppIDIsRejected(_ values: [String: String], _ code: MeterEventCode) {
        guard case .failure(let error) = AppInfo.parse(values) else {
            Issue.record("accepted \(values)")
            return
        }
        #expect(error.code == code)
        #expect(NielsenAppApi(appInfo: values, delegate: nil) == nil)
    }

    /// Anything else falls back to a default (or is detected) and becomes an issue to report.
    @Test(arguments: [
        (["appid": "P12345678-ABCD-4EF0-9123-456789ABCDEF", "appversion": "1", "sfcode": "ire"], [MeterEventCode.emptyAppName]),
        (["appid": "P12345678-ABCD-4EF0-9123-456789ABCDEF", "appname": "A", "sfcode": "it"], [.emptyAppVersion]),
        (["appid": "P12345678-ABCD-4EF0-9123-456789ABCDEF"], []),                 // generic: detected, not required
        (valid.merging(["nol_devDebug": "LOUD"]) { $1 }, [.emptyValue]),
        (valid.merging(["nol_collectorURL": "ftp://x"]) { $1 }, [.emptyValue]),
        (valid.merging(["nol_sdkFlavor": "kids"]) { $1 }, [.emptyValue]),
        (valid.merging(["enableFpid": "yes"]) { $1 }, [.emptyValue]),
    ] as [([String: String], [MeterEventCode])])
    func otherProblemsAreReportedAndMeasuringGoesOn(_ values: [String: String], _ codes: [MeterEventCode]) throws {
        let info = try AppInfo.parse(values, fallbackAppName: "Detected", fallbackAppVersion: "9").get()
        #expect(info.issues.map(\.code) == codes)
        #expect(!info.appName.isEmpty && !info.appVersion.isEmpty)
        #expect(info.debugLevel == nil || values["nol_devDebug"] != "LOUD")
        #expect(info.collectorURL.scheme == "https")
        #expect(info.firstPartyIDEnabled)
    }

    @Test func collectorComesFromSFCodeUnlessOverridden() throws {
        let plain = try AppInfo.parse(Self.valid.merging(["sfcode": "ire"]) { $1 }).get()
        #expect(plain.collectorURL.absoluteString == "https://secure-ire.imrworldwide.com")
        #expect(plain.market.name == "Ireland")
        let noSFCode = try AppInfo.parse(Self.valid).get()
        #expect(noSFCode.sfcode == "dcr")
        let custom = try AppInfo.parse(Self.valid.merging(["nol_collectorURL": "http://127.0.0.1:8080"]) { $1 }).get()
        #expect(custom.collectorURL.absoluteString == "http://127.0.0.1:8080")
    }

    @Test func polandDetectsAppNameAndVersion() throws {
        let info = try AppInfo.parse(["appid": Self.valid["appid"]!, "sfcode": "pl"], fallbackAppName: "Detected").get()
        #expect(info.appName == "Detected")
        #expect(info.appVersion == "0")
    }

    @Test(arguments: [("INFO", DebugLevel.info), ("W", .warn), ("error", .error), ("DEBUG", .debug)])
    func debugLevels(_ raw: String, _ level: DebugLevel) throws {
        #expect(try AppInfo.parse(Self.valid.merging(["nol_devDebug": raw]) { $1 }).get().debugLevel == level)
    }

    /// Tests never reach a real collector: loopback only, storage in memory.
    static let offline = MeterEnvironment(storage: InMemoryStorage())

    @Test func appInfoAsJSONStringWorksAndANumberIsReadAsItsStringAndReported() async {
        let json = "{\"appid\":\"P12345678-ABCD-4EF0-9123-456789ABCDE0\",\"appname\":\"A\",\"appversion\":\"1\","
            + "\"sfcode\":\"uat-cert\",\"nol_collectorURL\":\"http://127.0.0.1:9\"}"
        #expect(NielsenAppApi(appInfo: json, delegate: nil, environment: Self.offline) != nil)
        let numeric = "{\"appid\":\"P12345678-ABCD-4EF0-9123-456789ABCDE1\",\"appname\":\"A\",\"appversion\":2,"
            + "\"nol_collectorURL\":\"http://127.0.0.1:9\"}"
        let errors = ErrorCollector()
        let api = NielsenAppApi(appInfo: numeric, delegate: errors, environment: Self.offline)
        #expect(api?.meter?.appInfo.appVersion == "2")
        await api?.meter?.waitUntilProcessed()
        #expect(errors.descriptions.contains { $0.contains("'appversion'") && $0.contains("\"2\"") })
        #expect(NielsenAppApi(appInfo: "{\"appid\": 7}", delegate: nil, environment: Self.offline) == nil)
    }

    @Test func atMostFourLiveInstancesPerAppID() {
        let info = MeterHarness.appInfo()
        var instances = (0..<4).compactMap { _ in NielsenAppApi(appInfo: info, delegate: nil, environment: Self.offline) }
        #expect(instances.count == 4)
        #expect(NielsenAppApi(appInfo: info, delegate: nil, environment: Self.offline) == nil)
        #expect(NielsenAppApi(appInfo: MeterHarness.appInfo(), delegate: nil, environment: Self.offline) != nil)  // another appid
        instances.removeLast()
        #expect(NielsenAppApi(appInfo: info, delegate: nil, environment: Self.offline) != nil)
    }
}
