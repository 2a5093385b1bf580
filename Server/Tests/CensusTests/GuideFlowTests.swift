import AppMeter
import CensusHTTP
import CensusStore
import MeterTables
import Foundation
import Logging
import MeterDemo
import MeterWire
import NIOConcurrencyHelpers
import NielsenAppApi
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Each guide's flow end to end (docs/conformance.md, "Flows of the market guides"): driven through
/// the public facade on a virtual clock with the call trace on, its pings and trace delivered to an
/// in-process census over loopback HTTP (the real routes), then the census's credit per asset and
/// the certification of the traced session. The rows are in `GuideFlowTable.swift`.
@Suite struct GuideFlowTests {
    @Test(arguments: GuideFlow.all)
    func theGuidesFlowIsCreditedInFullAndPassesCertification(_ flow: GuideFlow) async throws {
        try await Backend.sqlite.withCensus { census in
            let appid = "P" + UUID().uuidString
            let errors = GuideFlowErrors()
            let session = try #require(try await GuideFlowPlayer.play(flow, appid: appid, census: census, errors: errors),
                                       "no trace session")
            if let expected = flow.errors {
                #expect(errors.heard.map(\.code) == expected, "\(flow.name): \(errors.heard.map(\.description))")
            }
            let rows = try await census.server.store.reports.report(ReportQuery(appid: appid))
            let credited = rows.reduce(into: [String: Int64]()) { $0["\($1.kind.rawValue)/\($1.assetid)", default: 0] += $1.creditedSeconds }
            #expect(credited == flow.credit, "\(flow.name): the census credited \(credited)")
            let views = rows.reduce(into: [String: Int64]()) { $0["\($1.kind.rawValue)/\($1.assetid)", default: 0] += $1.views }
            #expect(views == flow.views, "\(flow.name): the census counted views \(views)")
            let sessions = rows.reduce(into: [String: Int64]()) { $0["\($1.kind.rawValue)/\($1.assetid)", default: 0] += $1.sessions }
            #expect(sessions == flow.sessions, "\(flow.name): the census counted viewing sessions \(sessions)")
            #expect(rows.allSatisfy { $0.overBoundSeconds == 0 }, "\(flow.name): seconds over bound")

            // What `meter certify --census` reads: the signed export of the certification route.
            let url = try #require(URL(string: "\(census.baseURL)/api/v1/certification?session=\(session)"))
            let (body, _) = try await URLSession(configuration: .ephemeral).data(from: url)
            let export = try JSONDecoder().decode(CertificationExportShape.self, from: body)
            let report = try #require(export.reports.first)
            #expect(export.passed, "\(flow.name): the signed export says it failed")
            let failed = report.results.filter { $0.status == .fail }
            #expect(failed.isEmpty, "\(flow.name): \(failed.map { "\($0.id): \($0.evidence.map(\.text))" })")
            // Every call reached the census (a lost batch would leave the rules it decides unexercised).
            for rule in ["trace.complete"] + flow.exercises {
                let status = report.results.first { $0.id == rule }?.status
                #expect(status == .pass, "\(flow.name): \(rule) is \(status?.rawValue ?? "missing")")
            }
        }
    }

    /// Every row names a guide of docs/conformance.md's list and the sections it follows, and
    /// credits something; it counts views and sessions for exactly the assets it credits.
    @Test func everyRowNamesItsGuide() throws {
        // Server/Tests/CensusTests/ → the repository.
        let conformance = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("docs/conformance.md")
        let listed = try String(contentsOf: conformance, encoding: .utf8)
        for flow in GuideFlow.all {
            #expect(!flow.section.isEmpty && !flow.credit.isEmpty, "\(flow.name)")
            #expect(Set(flow.views.keys) == Set(flow.credit.keys) && Set(flow.sessions.keys) == Set(flow.credit.keys), "\(flow.name)")
            #expect(listed.contains("| \(flow.guide) |"), "\(flow.name): \(flow.guide) is not in docs/conformance.md's list of guides")
        }
    }
}

/// The errors a flow's delegate hears (both facades).
final class GuideFlowErrors: NielsenAppApiDelegate, NielsenEventTrackerDelegate, Sendable {
    private let received = NIOLockedValueBox([(code: Int, description: String)]())

    func nielsenAppApi(_ appApi: NielsenAppApi, errorOccurred error: [AnyHashable: Any]) { record(error) }

    func nielsenEventTracker(_ api: NielsenEventTracker, errorOccurred error: [AnyHashable: Any]) { record(error) }

    private func record(_ error: [AnyHashable: Any]) {
        let entry = (code: error["eventCode"] as? Int ?? -1, description: error["eventDescription"] as? String ?? "")
        received.withLockedValue { $0.append(entry) }
    }

    var heard: [(code: Int, description: String)] { received.withLockedValue { $0 } }
}

/// Plays a ``GuideFlow`` through the facade, as an app on a virtual clock would.
enum GuideFlowPlayer {
    /// Plays `flow` for `appid` against `census`, flushes, and returns the traced session; `errors`
    /// hears the delegate's errors.
    static func play(
        _ flow: GuideFlow, appid: String, census: RunningCensus, errors: GuideFlowErrors? = nil
    ) async throws -> String? {
        let clock = VirtualClock()
        let environment = MeterEnvironment(
            clock: clock, transport: URLSessionTransport(timeout: 10), storage: InMemoryStorage(),
            logHandler: { _ in SwiftLogNoOpLogHandler() }, notificationCenter: nil, measuresAppRun: false,
            viewabilityProvider: nil)
        // nol_devDebug DEBUG: the level certification runs at, which turns the call trace on.
        let appInfo = ["appid": appid, "appname": "Guide Flow", "appversion": "1.0", "sfcode": flow.sfcode,
                       "nol_collectorURL": census.baseURL, "nol_devDebug": "DEBUG"]
        switch flow.api {
        case .standard:
            let api = try #require(NielsenAppApi(appInfo: appInfo, delegate: errors, environment: environment))
            let meter = try #require(api.meter)
            await meter.waitUntilConfigured()
            for step in flow.steps { await perform(step, api: api, meter: meter, clock: clock) }
            await meter.flush(advancing: clock)
            return meter.traceSession
        case .simplified:
            let tracker = try #require(NielsenEventTracker(appInfo: appInfo, delegate: errors, environment: environment))
            let meter = try #require(tracker.meter)
            await meter.waitUntilConfigured()
            for step in flow.steps { await perform(step, tracker: tracker, meter: meter, clock: clock) }
            await meter.flush(advancing: clock)
            return meter.traceSession
        }
    }

    /// How many seconds of calls go by before the driver lets the delivery queue catch up. An app
    /// on the wall clock gives the queue a second between playheads; fed as fast as the virtual
    /// clock allows, an hour of playheads queues its trace (a record per 5 s) faster than loopback
    /// delivers it, and the queue's bound of 300 records drops trace records first.
    static let secondsBetweenDeliveries: Int64 = 60

    private static func perform(_ step: GuideStep, api: NielsenAppApi, meter: MeterInstance, clock: VirtualClock) async {
        switch step {
        case .play(let channel): api.play(channel)
        case .loadMetadata(let metadata): api.loadMetadata(metadata)
        case .playheads(let positions):
            for position in positions {
                clock.advance(by: 1)
                api.playheadPosition(position)
                if position % secondsBetweenDeliveries == 0 { await meter.flush() }
            }
        case .sendID3(let cid, let offset, let count):
            for index in 0..<count {
                clock.advance(by: 10)
                api.sendID3(DemoScenario.nielsenTag(cid: cid, offset: offset + 10 * index))
            }
        case .stop: api.stop()
        case .end: api.end()
        case .wait(let seconds): clock.advance(by: seconds)
        case .appInBackground: api.appInBackground()
        case .appInForeground: api.appInForeground()
        case .trackPlayheads, .trackEvent, .trackUnixMilliseconds, .trackStatic:
            Issue.record("trackEvent is the simplified API's: mark the row .simplified")
        }
    }

    private static func perform(_ step: GuideStep, tracker: NielsenEventTracker, meter: MeterInstance, clock: VirtualClock) async {
        func event(_ name: String, _ type: String, _ content: [String: String], _ ad: [String: String], _ position: Int64) -> [String: Any] {
            ["event": name, "type": type, "playheadPosition": String(position),
             "metadata": ["content": content, "ad": ad, "static": [String: String]()] as [String: Any]]
        }
        switch step {
        case .trackPlayheads(let type, let content, let ad, let positions):
            for position in positions {
                clock.advance(by: 1)
                tracker.trackEvent(event("playhead", type, content, ad, position))
                if position % secondsBetweenDeliveries == 0 { await meter.flush() }
            }
        case .trackEvent(let name, let type, let content, let ad, let position):
            tracker.trackEvent(event(name, type, content, ad, position))
        case .trackStatic(let page):
            tracker.trackEvent(["event": "playhead", "type": "static",
                                "metadata": ["content": [String: String](), "ad": [String: String](), "static": page] as [String: Any]])
        case .trackUnixMilliseconds(let content, let start, let seconds, let cid):
            for second in seconds {
                clock.advance(by: 1)
                var data = event("playhead", "content", content, [:], start + second * 1_000)
                // The latest tag of the stream: a new one every 10 s.
                if let cid { data["id3Data"] = DemoScenario.nielsenTag(cid: cid, offset: 22_847 + Int(second / 10) * 10) }
                tracker.trackEvent(data)
                if second % secondsBetweenDeliveries == 0 { await meter.flush() }
            }
        case .wait(let seconds): clock.advance(by: seconds)
        case .appInBackground: tracker.appInBackground()
        case .appInForeground: tracker.appInForeground()
        default:
            Issue.record("\(step) is the standard API's: mark the row .standard")
        }
    }
}
