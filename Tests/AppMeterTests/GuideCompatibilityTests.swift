import AppMeter
import Foundation
import Logging
import NielsenAppApi
import Testing

/// Code written from the guides, or against the original SDK's Swift interface, measures what the
/// guides promise.
@Suite struct GuideCompatibilityTests {
    /// the API reference: delegates as Xcode writes them for the imported Objective-C
    /// protocol, and as plain Swift; each hears each event exactly once.
    @Test func delegatesInBothFormsAreCalledOncePerEvent() async {
        let imported = ImportedFormDelegate()
        let plain = EventCollector()
        let first = MeterHarness(delegate: imported)
        let second = MeterHarness(delegate: plain)
        await first.api.waitUntilConfigured()
        await second.api.waitUntilConfigured()
        first.api.loadMetadata(["type": "content"])     // missing keys: errors
        await first.settle()
        #expect(imported.events.map { $0["EventStatus"] as? Int } == [2001])
        #expect(imported.errors.count == 7)           // one per missing key
        #expect(plain.events.map { $0["eventCode"] as? Int } == [2001])
    }

    /// the API reference "Sample event confirmation" (`EventStatus`, `Event Description`,
    /// `TimeStamp`) and the lastEventDict page (`eventCode`, `eventDescription`, `timestamp`).
    @Test func eventDictionariesCarryBothDocumentedKeySets() async throws {
        let meter = MeterHarness()
        await meter.api.waitUntilConfigured()
        let event = try #require(meter.api.lastEventDict)
        #expect(event["eventCode"] as? Int == 2001)
        #expect(event["EventStatus"] as? Int == 2001)
        #expect((event["eventDescription"] as? String)?.isEmpty == false)
        #expect(event["Event Description"] as? String == event["eventDescription"] as? String)
        #expect(event["timestamp"] is Date)
        #expect(event["TimeStamp"] as? String == "2023-11-14 22:13:20 +0000")   // the virtual clock's start
    }

    /// the Italy pages / the Poland page Swift opt-out snippet: `appApi?.userOptOut(urlStr)` with a `String?`.
    @Test func userOptOutTakesTheOptionalStringTheSnippetsPass() {
        let meter = MeterHarness()
        let urlStr: String? = nil
        #expect(meter.api.userOptOut(urlStr) == false)
        let optOut: String? = "nielsenappsdk://1"
        #expect(meter.api.userOptOut(optOut))
        #expect(meter.api.optOutStatus)
    }

    /// the DTVR guide NielsenInit.swift: appid, sfcode "us", nol_devDebug, containerId — no
    /// appname or appversion ("automatically detected"). It measures and reports nothing.
    @Test func theDTVRSampleAppInfoMeasuresWithDetectedNameAndVersion() async throws {
        let errors = ErrorCollector()
        let info = ["appid": MeterHarness.newAppID(), "sfcode": "us", "nol_devDebug": "DEBUG", "containerId": "1",
                    "nol_collectorURL": "http://127.0.0.1:9"]
        let meter = MeterHarness(appInfo: info, delegate: errors)
        meter.api.loadMetadata(Fixtures.content())
        meter.play(0...3)
        meter.api.end()
        let pings = await meter.pings()
        #expect(pings.count == 2)
        #expect(pings[0]["c15"] == "apn,\(AppInfo.detectedAppName)")
        #expect(pings[0]["c12"] == "apv,\(AppInfo.detectedAppVersion)")
        #expect(errors.codes.isEmpty)
    }

    /// Italy and Ireland require appname and appversion: still measured, reported as 1005/1006.
    @Test func aMissingRequiredAppNameIsReportedAndMeasuringGoesOn() async {
        let errors = ErrorCollector()
        let info = ["appid": MeterHarness.newAppID(), "sfcode": "it", "nol_collectorURL": "http://127.0.0.1:9"]
        let meter = MeterHarness(appInfo: info, delegate: errors)
        meter.api.loadMetadata(Fixtures.content())
        meter.play(0...3)
        meter.api.end()
        #expect(await meter.creditedOnTheWire() == ["content/vid345-67483": 3])
        #expect(errors.codes == [1005, 1006])
    }

    /// A typo in a debug or FPID flag, or a value that is not a string, never turns measurement
    /// off: it is reported (1004) and the default used.
    @Test func badOptionalAppInfoValuesFallBackAndAreReported() async {
        let errors = ErrorCollector()
        let info: [String: Any] = [
            "appid": MeterHarness.newAppID(), "appname": "A", "appversion": 2, "nol_devDebug": "LOUD",
            "enableFpid": "maybe", "nol_collectorURL": "http://127.0.0.1:9",
        ]
        let meter = MeterHarness(appInfo: info, delegate: errors)
        meter.api.loadMetadata(Fixtures.content())
        meter.play(0...2)
        meter.api.end()
        let pings = await meter.pings()
        #expect(pings.count == 2)
        #expect(pings[0]["c12"] == "apv,2")
        #expect(pings[0]["fp_id"] == "fpid1")                // enableFpid stays on
        #expect(errors.codes == [1004, 1004, 1004])
        #expect(errors.descriptions.contains { $0.contains("nol_devDebug") && $0.contains("LOUD") })
    }

    @Test func onlyAnUnusableAppIDStopsTheSDKAndItIsLoggedAtError() {
        let log = LogCapture()
        let environment = MeterEnvironment(storage: InMemoryStorage(), logHandler: log.handler)
        #expect(NielsenAppApi(appInfo: ["appid": "PXXXXXXX-XXXX-XXXX-XXXX-XXXXXXXXXXXX"], delegate: nil,
                              environment: environment) == nil)
        #expect(log.lines(at: .error).count == 1)
        #expect(log.lines(at: .error).first?.contains("'appid'") == true)
    }

    /// The simplified guide's `NielsenInit` sample passes `ccode`, `dma`, `uoo` and `containerId`:
    /// none measures anything by itself, and each is named once in a warning at init (A10, V5).
    @Test func theSampleAppInfoKeysWithoutEffectAreEachNamedOnceInAWarning() async {
        let log = LogCapture()
        let info = MeterHarness.appInfo(extra: ["ccode": "123", "dma": "456", "uoo": "0", "containerId": "1", "nol_devDebug": "WARN"])
        let meter = MeterHarness(appInfo: info, log: log)
        await meter.settle()
        let warnings = log.lines(at: .warning)
        for key in ["ccode", "dma", "uoo"] {
            #expect(warnings.filter { $0.hasPrefix("appInfo '\(key)' has no effect") }.count == 1, "\(key)")
        }
        #expect(warnings.filter { $0.contains("'containerId' 1 starts no viewability") && $0.contains("trackViewability") }.count == 1)

        let quiet = LogCapture()
        let plain = MeterHarness(appInfo: MeterHarness.appInfo(extra: ["nol_devDebug": "WARN"]), log: quiet)
        await plain.settle()
        #expect(!quiet.lines(at: .warning).contains { $0.hasPrefix("appInfo '") })
    }

    /// "INFO: logs each API call made and the data passed", WARN possible integration errors,
    /// ERROR integration errors, DEBUG everything.
    @Test(arguments: [("INFO", false), ("DEBUG", true)])
    func logsAtEachDocumentedLevel(_ level: String, _ debugLines: Bool) async throws {
        let log = LogCapture()
        let info = MeterHarness.appInfo(extra: ["nol_devDebug": level])
        let meter = MeterHarness(appInfo: info, log: log)
        meter.api.play(["channelName": "C"])
        meter.api.loadMetadata(Fixtures.content())
        meter.play(0...1)
        meter.api.loadMetadata(["type": "content", "assetid": "x"])   // missing keys: errors
        meter.api.stop()
        meter.api.stop()                                                // not expected: a warning
        await meter.settle()
        let infos = log.lines(at: .info)
        #expect(infos.contains { $0.hasPrefix("init appInfo=") && $0.contains("appid=") })
        // The Ireland guide's tester filters a proxy by the collector's host: the init line names it.
        let host = try #require(info["nol_collectorURL"].flatMap { URL(string: $0)?.host })
        #expect(infos.contains { $0.hasPrefix("init appInfo=") && $0.contains("collector=\(host) ") })
        #expect(infos.contains("play channelName=C"))
        #expect(infos.contains { $0.hasPrefix("loadMetadata ") })
        #expect(infos.contains("playheadPosition 0") && infos.contains("playheadPosition 1"))
        #expect(infos.contains("stop"))
        #expect(log.lines(at: .warning) == ["stop ignored: nothing is being measured (Idle)"])
        #expect(log.lines(at: .error).filter { $0.hasPrefix("error 1004") }.count == 6)
        #expect(log.lines(at: .debug).contains { $0.hasPrefix("ping built") } == debugLines)
    }
}

/// A delegate written with the signatures of the original SDK's imported protocol.
final class ImportedFormDelegate: NielsenAppApiDelegate, Sendable {
    private let received = Locked((events: [[AnyHashable: Any]](), errors: [[AnyHashable: Any]]()))
    func nielsenAppApi(_ appApi: NielsenAppApi!, eventOccurred event: [AnyHashable: Any]!) {
        received.withLock { $0.events.append(event) }
    }
    func nielsenAppApi(_ appApi: NielsenAppApi!, errorOccurred error: [AnyHashable: Any]!) {
        received.withLock { $0.errors.append(error) }
    }
    var events: [[AnyHashable: Any]] { received.withLock { $0.events } }
    var errors: [[AnyHashable: Any]] { received.withLock { $0.errors } }
}

/// Records log lines by level.
final class LogCapture: Sendable {
    private let records = Locked([(level: Logger.Level, message: String)]())

    var handler: @Sendable (String) -> any LogHandler {
        { [records] _ in CapturingHandler(records: records) }
    }

    func lines(at level: Logger.Level) -> [String] {
        records.withLock { $0.filter { $0.level == level }.map(\.message) }
    }

    private struct CapturingHandler: LogHandler {
        let records: Locked<[(level: Logger.Level, message: String)]>
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            records.withLock { $0.append((event.level, "\(event.message)")) }
        }
    }
}
