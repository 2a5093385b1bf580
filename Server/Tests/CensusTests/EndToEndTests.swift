import AppMeter
import CensusHTTP
import CensusStore
import MeterTables
import Foundation
import MeterDemo
import MeterWire
import NielsenAppApi
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The SDK and the census over loopback HTTP, as `meter demo` runs them.
@Suite(.serialized) struct EndToEndTests {
    @Test(arguments: Backend.available)
    func everyDocumentedScenarioIsCreditedExactly(_ backend: Backend) async throws {
        try await backend.withCensus { census in
            let runner = DemoRunner(census: census)
            var outcomes: [DemoOutcome] = []
            for scenario in DemoScenario.all {
                outcomes.append(try await runner.run(scenario))
            }
            let rows = try await census.server.store.reports.report(ReportQuery(appid: runner.appID))
            let dtvr = try await census.server.store.reports.dtvrReport(ReportQuery(appid: runner.appID))
            let stats = try await census.server.store.counts()
            let viewability = try await census.server.store.viewability.viewabilityReport(ReportQuery(appid: runner.appID))
            #expect(dtvr.map { "\($0.channel) \($0.cid) \($0.creditedSeconds) \($0.views) \($0.sessions)" }
                    == ["Demo TV One \(DemoScenario.demoCID) 120 1 1"])
            for outcome in outcomes {
                #expect(outcome.credited == outcome.scenario.expected, "\(outcome.scenario.name)")
            }
            #expect(rows.count == 15)
            #expect(rows.filter { $0.ottSeconds > 0 }.map { "\($0.assetid) \($0.ottSeconds)" } == ["demo-viewable-ep 60"])
            // Five viewability pings (one after each of the episode's measurement pings); each item's
            // duration runs from its first playhead to its last, so each flush and change costs a second.
            #expect(viewability.map { "\($0.assetid) \($0.pings) \($0.measuredSeconds) \($0.viewableSeconds) \($0.audibleSeconds)" }
                    == ["demo-viewable-ep 5 296 237 178"])
            #expect(rows.allSatisfy { $0.devices == 1 && $0.optedOutShare == 0 })
            // One view and one viewing session per asset, but the paused movie's: it resumed "for the
            // new viewing session" (decisions.md L3c).
            #expect(rows.filter { $0.views != 1 || $0.sessions != 1 }.map { "\($0.assetid) \($0.views) \($0.sessions)" }
                    == ["demo-movie 2 2"])
            #expect(Set(rows.map(\.kind)) == [.content, .ad, .dtvr, .station, .static])
            // The AMP page view's pings are built by the census: a view, one at 60 s, the last 5 s.
            #expect(outcomes.last?.ampRequests == 9)
            #expect(stats.pings == Int64(outcomes.map(\.pingsBuilt).reduce(0, +)) + 3)
            #expect(stats.rejects == 0)
        }
    }

    /// An ad inside audio content goes out with `rt=audio` and `c3=st,a`: the census credits it as
    /// an ad (it used to read `rt` first and credit the ad's seconds as audio content).
    @Test func anAdInsideAudioContentIsCreditedAsAnAd() async throws {
        try await Backend.sqlite.withCensus { census in
            let runner = DemoRunner(census: census)
            var audio = ["type": "content", "assetid": "radio-show", "program": "Morning", "title": "Morning 1",
                         "length": "3600", "airdate": "20261121 08:00:00", "isfullepisode": "y", "adloadtype": "2"]
            audio["isAudio"] = "true"
            let scenario = DemoScenario(
                name: "Audio with a midroll", steps: [
                    .play(channel: "Radio"), .load(audio), .playheads(Array(0...40)),
                    .load(["type": "midroll", "assetid": "audio-ad"]), .playheads(Array(0...15)), .stop,
                    .load(audio), .playheads(Array(41...60)), .end,
                ],
                expected: ["radio-show": 60, "audio-ad": 15])
            let outcome = try await runner.run(scenario)
            let rows = try await census.server.store.reports.report(ReportQuery(appid: runner.appID))
            #expect(outcome.matches)
            #expect(Dictionary(uniqueKeysWithValues: rows.map { ($0.assetid, $0.kind) }) == ["radio-show": .audio, "audio-ad": .ad])
        }
    }

    /// 10,000 valid pings and 1,000 malformed ones, eight at a time: exactly 10,000 stored,
    /// 1,000 rejected with reasons, and the server still answering.
    @Test(arguments: Backend.available)
    func tenThousandValidAndAThousandMalformedPings(_ backend: Backend) async throws {
        try await backend.withCensus { census in
            let session = URLSession(configuration: .ephemeral)
            let base = census.baseURL
            let statuses = try await withThrowingTaskGroup(of: [Int].self) { group in
                for worker in 0..<8 {
                    group.addTask {
                        var statuses: [Int] = []
                        for index in stride(from: worker, to: 11_000, by: 8) {
                            var query = PingQueries.valid(pingID: "load-\(index)", session: "s\(index % 97)")
                            if index % 11 == 10 { query = query.replacingOccurrences(of: "cln,10", with: "cln,x\(index)") }
                            let (_, response) = try await session.data(from: URL(string: "\(base)/cgi-bin/gn?\(query)")!)
                            statuses.append((response as! HTTPURLResponse).statusCode)
                        }
                        return statuses
                    }
                }
                return try await group.reduce(into: [Int]()) { $0 += $1 }
            }
            let (_, health) = try await session.data(from: URL(string: "\(base)/healthz")!)
            let counts = try await census.server.store.counts()
            let reasons = try await census.server.store.rejectReasons()
            let batches = census.server.writer.batches
            #expect(statuses.filter { $0 == 200 }.count == 10_000)
            #expect(statuses.filter { $0 == 400 }.count == 1_000)
            #expect(counts == (10_000, 1_000))
            #expect(reasons.allSatisfy { $0.hasPrefix("c27 is \"x") })
            #expect((health as! HTTPURLResponse).statusCode == 200)
            #expect(batches < 10_000)  // group commit: concurrent pings share commits
        }
    }

    @Test func theSDKsHelloPingGetsTheCensusConfig() async throws {
        try await Backend.sqlite.withCensus { census in
            let appid = "P" + UUID().uuidString
            try await census.server.store.apps.setSettings(AppSettings(enabled: false, durationPingInterval: 60), for: appid)
            let api = NielsenAppApi(
                appInfo: ["appid": appid, "appname": "t", "appversion": "1", "nol_collectorURL": census.baseURL],
                delegate: nil, environment: MeterEnvironment(storage: InMemoryStorage()))!
            await api.waitUntilConfigured()
            let state = api.meter?.snapshot.state
            #expect(state == .disabledByCensus)
        }
    }
}
