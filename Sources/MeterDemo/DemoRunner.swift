import AppMeter
import Census
import Foundation
import NielsenAppApi

/// What one scenario produced: expected against credited, per asset.
public struct DemoOutcome: Sendable {
    /// The scenario.
    public let scenario: DemoScenario
    /// Seconds the census credited, per asset id.
    public let credited: [String: Int64]
    /// Pings the SDK built.
    public let pingsBuilt: Int

    /// Whether every asset was credited exactly as expected.
    public var matches: Bool { scenario.expected == credited }
}

/// Plays scenarios through the documented `NielsenAppApi` against a census, with a virtual
/// clock so an hour of viewing takes a moment, and reads back what the census credited.
public struct DemoRunner: Sendable {
    /// The census to report to.
    public let census: RunningCensus
    /// The appid every scenario runs under (fresh per run, so reports never mix runs).
    public let appID: String

    /// Creates a runner with a fresh appid.
    public init(census: RunningCensus, appID: String = "P" + UUID().uuidString) {
        self.census = census
        self.appID = appID
    }

    /// Plays `scenario` and returns what the census credited to its assets.
    public func run(_ scenario: DemoScenario) async throws -> DemoOutcome {
        let clock = VirtualClock(start: Date.now.timeIntervalSince1970.rounded(.down))
        // In-memory storage keeps the demo from writing ids to the user's application-support folder;
        // the platform identity gives a Linux device a generated vendor id, as in production.
        let environment = MeterEnvironment(
            clock: clock, transport: URLSessionTransport(timeout: 10), storage: InMemoryStorage(),
            measuresAppRun: false)   // each scenario is one stream, not one app launch
        let appInfo = ["appid": appID, "appname": "AppMeter Demo", "appversion": MeterInstance.version,
                       "sfcode": "dcr", "nol_collectorURL": census.baseURL]
        guard let api = NielsenAppApi(appInfo: appInfo, delegate: nil, environment: environment) else {
            throw DemoError.sdkDidNotStart
        }
        await api.waitUntilConfigured()
        for step in scenario.steps {
            switch step {
            case .play(let channel): api.play(channel.map { ["channelName": $0] })
            case .load(let metadata): api.loadMetadata(metadata)
            case .playheads(let positions):
                for position in positions {
                    clock.advance(by: 1)
                    api.playheadPosition(position)
                }
            case .livePlayheads(let seconds):
                let edge = clock.now().unixSeconds
                for position in edge...(edge + seconds) {
                    clock.advance(by: 1)
                    api.playheadPosition(position)
                }
            case .wait(let seconds): clock.advance(by: seconds)
            case .show(let seconds):
                for _ in 0..<seconds { clock.advance(by: 1) }
            case .staticEnd: api.staticEnd()
            case .background(let seconds):
                api.appInBackground()
                clock.advance(by: seconds)
                api.appInForeground()
            case .id3Tags(let cid, let offset, let count):
                for index in 0..<count {
                    clock.advance(by: 10)
                    api.sendID3(DemoScenario.nielsenTag(cid: cid, offset: offset + 10 * index))
                }
            case .stop: api.stop()
            case .end: api.end()
            }
        }
        await api.meter?.flush(advancing: clock)
        let rows = try await census.server.store.report(ReportQuery(appid: appID))
        let credited = rows.filter { scenario.expected.keys.contains($0.assetid) }
            .reduce(into: [String: Int64]()) { $0[$1.assetid, default: 0] += $1.creditedSeconds }
        return DemoOutcome(scenario: scenario, credited: credited, pingsBuilt: api.meter?.snapshot.pingsBuilt ?? 0)
    }
}

/// Demo failures.
public enum DemoError: Error, CustomStringConvertible {
    /// The SDK refused the demo's appInfo.
    case sdkDidNotStart

    public var description: String { "the SDK did not start with the demo appInfo" }
}
