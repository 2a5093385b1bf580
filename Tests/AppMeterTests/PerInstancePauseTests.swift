@testable import AppMeter
import NielsenAppApi
import Testing

/// `appDisableApi` holds the pings of the instance it was set on, not those of the app's other
/// instances, which share its delivery queue (issue "One measurement core for every platform").
@Suite struct PerInstancePauseTests {
    @Test func disablingOneInstanceHoldsOnlyItsOwnPings() async {
        let storage = InMemoryStorage()
        let transport = RecordingTransport()
        let appID = MeterHarness.newAppID()
        // The first instance opens the queue, whose clock is its own: it is the one settled.
        let preview = MeterHarness(appInfo: MeterHarness.appInfo(appID: appID), storage: storage, transport: transport)
        let player = MeterHarness(appInfo: MeterHarness.appInfo(appID: appID), storage: storage, transport: transport)
        transport.script([.failure("offline")])   // the preview's first ping waits for a retry
        preview.api.play()
        preview.api.loadMetadata(Fixtures.content("preview-1"))
        preview.play(0...10)
        preview.api.appDisableApi = true          // closes its segment; its pings are held
        await preview.settle()
        #expect(preview.api.meter!.diagnostics.queued == 2)
        player.api.play()
        player.api.loadMetadata(Fixtures.content("episode-1"))
        player.play(0...30)
        player.api.end()
        await preview.settle()
        // The player's two pings (view, final) went; the disabled instance's two still wait.
        #expect(player.api.meter!.diagnostics.counters.delivered == 2)
        #expect(player.api.meter!.diagnostics.queued == 2)
        #expect(player.api.meter!.diagnostics.paused)
        preview.api.appDisableApi = false
        await preview.settle()
        #expect(player.api.meter!.diagnostics.queued == 0)
        #expect(await player.creditedOnTheWire() == ["content/episode-1": 30, "content/preview-1": 10])
    }

    /// With every instance disabled nothing is sent, not even a ping an earlier process left.
    @Test func withEveryInstanceDisabledAnEarlierProcesssPingWaits() async {
        let storage = InMemoryStorage()
        let left = Ping(id: "left-behind", kind: .view, assetKind: .content, assetID: "a", creditedSeconds: 0,
                        createdAt: 1_700_000_000 - 60, parameters: [PingParameter("prd", "dcr"), PingParameter("pingid", "left-behind")])
        storage.save("q-0000000000001-000001-left", PingRecordCodec.encode(PingRecord(ping: left, recovered: false)))
        let meter = MeterHarness(storage: storage, configure: { $0.script([.failure("offline")]) })
        meter.api.appDisableApi = true
        await meter.settle()
        #expect(meter.api.meter!.diagnostics.counters.delivered == 0)
        #expect(meter.api.meter!.diagnostics.queued == 1)
        meter.api.appDisableApi = false
        await meter.settle()
        #expect(meter.api.meter!.diagnostics.counters.delivered == 1)
        #expect(meter.transport.pings.last?["pingid"] == "left-behind")
    }
}
