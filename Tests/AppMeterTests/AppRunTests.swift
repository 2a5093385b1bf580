import AppMeter
import Foundation
import NielsenAppApi
import Testing

/// The app's own measurement (the API reference: "Application launch events and how long
/// app was running", "Application crash events").
@Suite struct AppRunTests {
    static func summary(_ ping: DecodedPing) -> String {
        "\(ping.kind) \(ping["prd"]!) \(ping.credited) crs=\(ping["crs"] ?? "-")"
    }

    @Test func theFirstInstanceSendsTheLaunchAndTheForegroundTimeAtTheBackground() async {
        let storage = InMemoryStorage()
        let transport = RecordingTransport()
        let first = MeterHarness(storage: storage, transport: transport, measuresAppRun: true)
        let second = MeterHarness(storage: storage, transport: transport, measuresAppRun: true)  // not a launch
        for _ in 0..<100 { first.clock.advance(by: 1) }
        first.api.appInBackground()
        first.clock.advance(by: 500)
        first.api.appInForeground()
        for _ in 0..<30 { first.clock.advance(by: 1) }
        first.api.appInBackground()
        await first.settle()
        await second.settle()
        let app = transport.appPings
        #expect(app.map(Self.summary) == ["view app 0 crs=0", "timer app 100 crs=", "timer app 30 crs="])
        #expect(app.allSatisfy { $0["ai"] == "Harness" && $0["c13"]?.hasPrefix("asid,P") == true })
        #expect(storage.load("run-state") == Data("clean".utf8))
    }

    /// A run that never reached the background: the next launch says so, and the seconds the dead
    /// process checkpointed arrive, flagged recovered.
    @Test func aKillInTheForegroundIsACrashAtTheNextLaunchAndItsTimeIsRecovered() async {
        let storage = InMemoryStorage()
        let transport = RecordingTransport()
        // The dead run: "running" since its launch, 130 s checkpointed, no ping with them.
        do {
            let dead = MeterHarness(storage: storage, transport: transport, measuresAppRun: true)
            for _ in 0..<130 { dead.clock.advance(by: 1) }
            await dead.api.meter!.waitUntilProcessed()
            #expect(storage.load("run-state") == Data("running".utf8))
            dead.api.appDisableApi = true                    // it sends nothing more…
            await dead.api.meter!.waitUntilProcessed()
        }
        // …and "dies": a new process is a new launch registry, so here a new storage identity
        // holding the same values stands in for it.
        let relaunched = InMemoryStorage()
        for key in storage.keys { relaunched.save(key, storage.load(key)) }
        let next = MeterHarness(storage: relaunched, transport: transport, measuresAppRun: true)
        await next.settle()
        let launches = transport.appPings.filter { $0.kind == "view" }
        #expect(launches.map { $0["crs"] } == ["0", "1"])
        let recovered = transport.appPings.filter { $0["recovered"] == "1" }
        #expect(recovered.map(\.credited) == [120])
    }
}
