import AppMeter
package import CensusHTTP
import CensusStore
import Foundation
import Logging
import NielsenAppApi

/// What one scenario produced: expected against credited, per asset.
package struct DemoOutcome: Sendable {
    /// The scenario.
    package let scenario: DemoScenario
    /// Seconds the census credited, per asset id.
    package let credited: [String: Int64]
    /// Pings the SDK built.
    package let pingsBuilt: Int
    /// Requests sent straight to the census, as AMP pages do (no SDK).
    package var ampRequests = 0
    /// The SDK instance's call trace session (`meter certify --session`).
    package var traceSession: String?

    /// What was sent, for the demo's progress line.
    package var sentSummary: String {
        ampRequests > 0 ? "\(ampRequests) AMP requests" : "\(pingsBuilt) pings"
    }

    /// Whether every asset was credited exactly as expected.
    package var matches: Bool { scenario.expected == credited }
}

/// Plays scenarios through the documented `NielsenAppApi` against a census, with a virtual
/// clock so an hour of viewing takes a moment, and reads back what the census credited.
package struct DemoRunner: Sendable {
    /// The census to report to.
    package let census: RunningCensus
    /// The appid every scenario runs under (fresh per run, so reports never mix runs).
    package let appID: String

    /// Creates a runner with a fresh appid.
    package init(census: RunningCensus, appID: String = "P" + UUID().uuidString) {
        self.census = census
        self.appID = appID
    }

    /// Plays `scenario` and returns what the census credited to its assets.
    package func run(_ scenario: DemoScenario) async throws -> DemoOutcome {
        let clock = VirtualClock(start: Date.now.timeIntervalSince1970.rounded(.down))
        if scenario.isAMPOnly { return try await runAMP(scenario, clock: clock) }
        // In-memory storage keeps the demo from writing ids to the user's application-support folder;
        // the platform identity gives a Linux device a generated vendor id, as in production.
        let viewability = DemoViewability()
        let environment = MeterEnvironment(
            clock: clock, transport: URLSessionTransport(timeout: 10), storage: InMemoryStorage(),
            // nol_devDebug is DEBUG (certification runs at it, and it turns the call trace on); the
            // demo prints its own summary instead of the SDK's debug log.
            logHandler: { _ in SwiftLogNoOpLogHandler() },
            measuresAppRun: false,   // each scenario is one stream, not one app launch
            viewabilityProvider: viewability)
        if scenario.usesSimplifiedAPI {
            return try await runSimplified(scenario, clock: clock, environment: environment)
        }
        guard let api = NielsenAppApi(appInfo: appInfo, delegate: nil, environment: environment) else {
            throw DemoError.sdkDidNotStart
        }
        await api.waitUntilConfigured()
        var ampRequests = 0
        var tracksViewability = false
        for step in scenario.steps {
            switch step {
            case .play(let channel): api.play(channel.map { ["channelName": $0] })
            case .load(let metadata): api.loadMetadata(metadata)
            case .playheads(let positions):
                for position in positions {
                    clock.advance(by: 1)
                    api.playheadPosition(position)
                    if position % Self.secondsBetweenDeliveries == 0 { await api.meter?.flush() }
                }
            case .livePlayheads(let seconds):
                let edge = clock.now().unixSeconds
                for position in edge...(edge + seconds) {
                    clock.advance(by: 1)
                    api.playheadPosition(position)
                    if position % Self.secondsBetweenDeliveries == 0 { await api.meter?.flush() }
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
            case .airPlay(let device):
                api.updateOTT(device.map { ["ottStatus": "1", "ottType": "airplay", "ottDevice": "appleTV", "ottDeviceModel": $0] }
                              ?? ["ottStatus": "0"])
            case .viewability(let visible, let volume):
                if !tracksViewability {
                    api.trackViewability(["viewTag": "1"])
                    tracksViewability = true
                }
                viewability.show(visible: visible, volume: volume)
            case .ampPageView(let section, let seconds):
                ampRequests += try await sendAMPPageView(section: section, seconds: seconds, clock: clock)
            case .track:
                preconditionFailure("trackEvent steps run in runSimplified")
            }
        }
        await api.meter?.flush(advancing: clock)
        var outcome = DemoOutcome(scenario: scenario, credited: try await credited(scenario),
                                  pingsBuilt: api.meter?.snapshot.pingsBuilt ?? 0)
        outcome.ampRequests = ampRequests
        outcome.traceSession = api.meter?.traceSession
        return outcome
    }
}

extension DemoRunner {
    /// How many virtual seconds of playheads go by before the runner lets the delivery queue catch
    /// up, as the wall clock would: fed at full speed, a long scenario queues its call trace (a
    /// record per 5 s) faster than it is sent, the queue's bound drops trace records first, and
    /// the session fails `trace.complete`.
    static let secondsBetweenDeliveries: Int64 = 60

    /// The demo app's appInfo.
    var appInfo: [String: String] {
        ["appid": appID, "appname": "AppMeter Demo", "appversion": MeterInstance.version, "sfcode": "dcr",
         "nol_collectorURL": census.baseURL, "nol_devDebug": "DEBUG"]
    }

    /// What the census credited to the scenario's assets.
    func credited(_ scenario: DemoScenario) async throws -> [String: Int64] {
        try await census.server.store.reports.report(ReportQuery(appid: appID))
            .filter { scenario.expected.keys.contains($0.assetid) }
            .reduce(into: [String: Int64]()) { $0[$1.assetid, default: 0] += $1.creditedSeconds }
    }
}

/// Demo failures.
package enum DemoError: Error, CustomStringConvertible {
    /// The SDK refused the demo's appInfo.
    case sdkDidNotStart
    /// The census did not take an AMP request.
    case ampRequestRefused(String)

    package var description: String {
        switch self {
        case .sdkDidNotStart: "the SDK did not start with the demo appInfo"
        case .ampRequestRefused(let url): "the census refused the AMP request \(url)"
        }
    }
}
