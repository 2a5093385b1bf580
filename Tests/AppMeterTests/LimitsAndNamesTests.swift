import AppMeter
import Foundation
import NielsenAppApi
import Testing

/// Where the guides disagree or spell a key two ways (decisions.md A6, A7, A8): the instance limit of
/// each API, `containerID`, and `appDisableApi` reading back what is in force.
@Suite struct LimitsAndNamesTests {
    static func environment() -> MeterEnvironment {
        let transport = RecordingTransport()
        transport.scriptConfig([], then: RecordingTransport.config())
        return MeterEnvironment(clock: VirtualClock(start: 1_700_000_000), transport: transport,
                                identifiers: SequentialIdentifierSource(), storage: InMemoryStorage(),
                                identityProvider: MeterHarness.device)
    }

    @Test func theSimplifiedAPIHasNoLimit() {
        let appInfo = MeterHarness.appInfo()
        let live = (1...6).compactMap { _ in NielsenEventTracker(appInfo: appInfo, delegate: nil, environment: Self.environment()) }
        #expect(live.count == 6)
        // Nor do its instances take the standard API's slots (AppInfoTests.atMostFourLiveInstancesPerAppID).
        let standard = (1...4).compactMap { _ in NielsenAppApi(appInfo: appInfo, delegate: nil, environment: Self.environment()) }
        #expect(standard.count == 4)
    }

    @Test(arguments: ["containerId", "containerID"])
    func bothSpellingsOfTheContainerAreRead(_ key: String) async {
        let provider = ScriptedViewability()
        let meter = MeterHarness(appInfo: MeterHarness.appInfo(extra: [key: "100"]), viewability: provider)
        meter.api.trackViewability([:])
        await meter.processed()
        #expect(provider.target?.viewTag == 100)
        #expect(meter.api.lastErrorDict == nil || meter.api.lastErrorDict.isEmpty)
    }

    @Test func appDisableApiReadsBackTheCensussKillSwitch() async {
        let meter = MeterHarness { $0.scriptConfig([], then: RecordingTransport.config(enabled: false)) }
        #expect(!meter.api.appDisableApi)
        await meter.api.waitUntilConfigured()
        #expect(meter.api.appDisableApi)
        meter.api.appDisableApi = false            // ignored: the census decides
        await meter.processed()
        #expect(meter.api.appDisableApi)
    }

    @Test func appDisableApiReadsBackTheAppsOwnSettingAtOnce() {
        let meter = MeterHarness()
        meter.api.appDisableApi = true
        #expect(meter.api.appDisableApi)
        meter.api.appDisableApi = false
        #expect(!meter.api.appDisableApi)
    }
}
