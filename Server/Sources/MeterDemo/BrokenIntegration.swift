import AppMeter
package import CensusHTTP
import CensusStore
import Foundation
import Logging
import NielsenAppApi

/// A deliberately broken integration, for certification to catch: it calls `loadMetadata`
/// before every playhead, which the pre-certification checklist forbids (the original SDK then
/// credits nothing). Played under its own appid, so the demo app's sessions stay clean.
package struct BrokenIntegration: Sendable {
    /// The appid it plays under.
    package let appID: String
    /// The rule it must fail.
    package static let failingRule = "metadata.notBeforeEveryPlayhead"

    package init(appID: String = "P" + UUID().uuidString) {
        self.appID = appID
    }

    /// Plays one minute of content the wrong way against `census`; returns its trace session.
    package func play(against census: RunningCensus) async throws -> String? {
        let clock = VirtualClock(start: Date.now.timeIntervalSince1970.rounded(.down))
        let environment = MeterEnvironment(
            clock: clock, transport: URLSessionTransport(timeout: 10), storage: InMemoryStorage(),
            logHandler: { _ in SwiftLogNoOpLogHandler() }, measuresAppRun: false)
        let appInfo = ["appid": appID, "appname": "Broken Player", "appversion": "0.1", "sfcode": "dcr",
                       "nol_collectorURL": census.baseURL, "nol_devDebug": "DEBUG"]
        guard let api = NielsenAppApi(appInfo: appInfo, delegate: nil, environment: environment) else {
            throw DemoError.sdkDidNotStart
        }
        await api.waitUntilConfigured()
        let metadata = ["type": "content", "assetid": "broken-ep1", "program": "Broken", "title": "Broken S1E1",
                        "length": "600", "airdate": "20261122 20:00:00", "isfullepisode": "y", "adloadtype": "2"]
        api.play(["channelName": "Broken Channel"])
        for position: Int64 in 0...60 {
            api.loadMetadata(metadata)
            clock.advance(by: 1)
            api.playheadPosition(position)
        }
        api.stop()
        await api.meter?.flush(advancing: clock)
        return api.meter?.traceSession
    }
}
