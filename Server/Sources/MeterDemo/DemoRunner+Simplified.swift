import AppMeter
import NielsenAppApi

extension DemoRunner {
    /// Plays a scenario of `track` steps through `NielsenEventTracker`, as the simplified guide's
    /// ViewController does: one dictionary per second, the playhead updated in it.
    func runSimplified(_ scenario: DemoScenario, clock: VirtualClock, environment: MeterEnvironment) async throws -> DemoOutcome {
        guard let tracker = NielsenEventTracker(appInfo: appInfo, delegate: nil, environment: environment) else {
            throw DemoError.sdkDidNotStart
        }
        await tracker.meter?.waitUntilConfigured()
        for case .track(let event, let type, let content, let ad, let positions) in scenario.steps {
            var data: [String: Any] = [
                "event": event, "type": type, "playheadPosition": "",
                "metadata": ["content": content, "ad": ad, "static": [String: String]()] as [String: Any],
            ]
            guard !positions.isEmpty else {
                tracker.trackEvent(data)
                continue
            }
            for position in positions {
                clock.advance(by: 1)
                data.updateValue(String(position), forKey: "playheadPosition")
                tracker.trackEvent(data)
                if position % Self.secondsBetweenDeliveries == 0 { await tracker.meter?.flush() }
            }
        }
        await tracker.meter?.flush(advancing: clock)
        var outcome = DemoOutcome(scenario: scenario, credited: try await credited(scenario),
                                  pingsBuilt: tracker.meter?.snapshot.pingsBuilt ?? 0)
        outcome.traceSession = tracker.meter?.traceSession
        return outcome
    }
}
