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
        (["appversion": "1", "appid": "P12345678-ABCD-4EF0-9123-456789ABCDEF"], .emptyAppName),
        (["appname": "A", "appid": "P12345678-ABCD-4EF0-9123-456789ABCDEF"], .emptyAppVersion),
        (valid.merging(["nol_devDebug": "LOUD"]) { $1 }, .emptyValue),
        (valid.merging(["nol_collectorURL": "ftp://x"]) { $1 }, .emptyValue),
    ] as [([String: String], MeterEventCode)])
    func invalidAppInfoIsRejected(_ values: [String: String], _ code: MeterEventCode) {
        guard case .failure(let error) = AppInfo.parse(values) else {
            Issue.record("accepted \(values)")
            return
        }
        #expect(error.code == code)
        #expect(NielsenAppApi(appInfo: values, delegate: nil) == nil)
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

    @Test func appInfoAsJSONStringWorksAndNumbersAreRejected() {
        let json = "{\"appid\":\"P12345678-ABCD-4EF0-9123-456789ABCDE0\",\"appname\":\"A\",\"appversion\":\"1\","
            + "\"sfcode\":\"uat-cert\",\"nol_collectorURL\":\"http://127.0.0.1:9\"}"
        #expect(NielsenAppApi(appInfo: json, delegate: nil, environment: Self.offline) != nil)
        let numeric = "{\"appid\":\"P12345678-ABCD-4EF0-9123-456789ABCDE1\",\"appname\":\"A\",\"appversion\":2}"
        #expect(NielsenAppApi(appInfo: numeric, delegate: nil) == nil)
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
