@testable import CensusHTTP
@testable import CensusPostgres
@testable import CensusSQLite
@testable import CensusStore
@testable import MeterTables
import Foundation
import MeterDemo
import MeterWire
import Testing

/// The dashboard's per-session credit (``SessionCredit``), its timeline
/// (``SessionTimeline/credited(_:credit:stored:entries:)``) and the credit report agree for every
/// asset of the demo's sessions (DCR video with ads, live, static, DTVR, radio, the simplified
/// API, Google AMP) and of an original Browser SDK session: the timeline shares out exactly the
/// session's credit, and the sessions' credits add up to the report's lines.
@Suite struct SessionCreditTests {
    @Test(arguments: Backend.available)
    func timelineSessionCreditAndReportAgreeForEveryAsset(_ backend: Backend) async throws {
        try await backend.withCensus { census in
            let runner = DemoRunner(census: census)
            for scenario in DemoScenario.all {
                let outcome = try await runner.run(scenario)
                #expect(outcome.matches, "\(scenario.name): \(outcome.credited)")
            }
            let browser = try await Self.storeBrowserSession(in: census.server.store)

            var sessions: [(name: String, credit: [AssetCredit], timeline: [TimelineSegment])] = []
            for row in try await census.server.sessions.sessionList(appid: runner.appID).sessions {
                let trace = try await census.server.sessions.traceResponse(session: row.session, appid: row.appid)
                // Every listed session measured something: the AMP scenario leaves no empty SDK session.
                #expect(!trace.stored.isEmpty, "session \(row.session) (\(row.platform)) stored no pings")
                sessions.append((row.session, trace.credit, trace.timeline))
            }
            let stored = try await census.server.store.sessions.pings(session: browser)
            let credit = SessionCredit.assets(of: stored)
            sessions.append((browser, credit, SessionTimeline.credited([], credit: credit, stored: stored, entries: [])))

            var bySessions: [String: Int64] = [:]
            var drawn: [String: Int64] = [:]
            for session in sessions {
                let timeline = Self.sums(session.timeline.filter { $0.type != "pause" }.map { ($0.assetid, $0.creditedSeconds) })
                #expect(timeline == Self.sums(session.credit.map { ($0.assetid, $0.creditedSeconds) }), "session \(session.name)")
                for row in session.credit { bySessions["\(row.appid) \(row.kind.rawValue) \(row.assetid)", default: 0] += row.creditedSeconds }
                for (asset, seconds) in timeline { drawn[asset, default: 0] += seconds }
            }
            var reported: [String: Int64] = [:]
            for appid in [runner.appID, OriginalBrowserPingTests.apid] {
                for row in try await census.server.store.reports.report(ReportQuery(appid: appid)) {
                    reported["\(row.appid) \(row.kind.rawValue) \(row.assetid)"] = row.creditedSeconds
                }
            }
            #expect(bySessions == reported)
            // What was played, as the demo's hand-worked figures say, is what the timelines show.
            for scenario in DemoScenario.all {
                for (asset, seconds) in scenario.expected { #expect(drawn[asset] == seconds, "\(scenario.name): \(asset)") }
            }
            #expect(drawn[Self.browserAsset] == 60)
            #expect(sessions.count == DemoScenario.all.count + 1)
        }
    }

    /// The timeline shares an asset's credit out exactly: by what its segments' pings claimed,
    /// else by their lengths, else evenly; rounding never loses or adds a second.
    @Test func aSharedOutCreditAddsUpToItExactly() {
        #expect(SessionTimeline.share(100, weights: [1, 1, 1], lengths: [9, 9, 9]) == [33, 33, 34])
        #expect(SessionTimeline.share(120, weights: [0, 0], lengths: [30, 90]) == [30, 90])
        #expect(SessionTimeline.share(7, weights: [0, 0], lengths: [0, 0]) == [3, 4])
        #expect(SessionTimeline.share(.max, weights: [1, 2], lengths: [1, 1]).reduce(0, +) == .max)
        #expect(SessionTimeline.share(5, weights: [], lengths: []) == [])
    }

    /// A credited asset no call began (a page view's replay, `trackEvent`) is drawn from its pings,
    /// with the credit the session earns, and a ping stored twice counts once.
    @Test func anAssetNoCallBeganIsDrawnFromItsPingsWithItsCredit() {
        let pings = [10, 20, 30].map { offset in
            StoredPing(pingID: "p\(offset)", appid: "Pa", pingType: offset == 10 ? "view" : "timer", kind: .static,
                       assetid: "home", creditedSeconds: offset == 10 ? 0 : 10, createdAt: 1_700_000_000 + Int64(offset), rawQuery: "")
        }
        let credit = SessionCredit.assets(of: pings + pings)
        #expect(credit.map(\.creditedSeconds) == [20])
        let timeline = SessionTimeline.credited([], credit: credit, stored: pings, entries: [])
        #expect(timeline.map { "\($0.type) \($0.assetid) \($0.start) \($0.end) \($0.creditedSeconds)" }
                == ["static home 1700000010.0 1700000030.0 20"])
    }

    static let browserAsset = "1567000000333"

    /// An original Browser SDK session (no trace, the session in `sessionId`): a static page's
    /// view, then two 30 s duration pings; returns the session.
    static func storeBrowserSession(in store: PingStore) async throws -> String {
        let session = "browser-\(UUID().uuidString)"
        let view = OriginalBrowserPingTests.staticView(nuid: "uuid-9", session: session, asset: browserAsset)
        let queries = [view] + [30, 60].map { offset in
            view.replacingOccurrences(of: "at=view", with: "at=timer").replacingOccurrences(of: "c27=cln,0", with: "c27=cln,30")
                .replacingOccurrences(of: "c61=createtm,1567000000", with: "c61=createtm,\(1_567_000_000 + offset)")
        }
        var pings: [IncomingPing] = []
        for query in queries {
            var ping = try PingValidator.validate(query: Substring(query), uriLength: query.utf8.count + 12).get()
            CreditBounds.apply(to: &ping, interval: 60, receivedAt: 1_567_000_100)
            pings.append(ping)
        }
        _ = try await store.insert(pings, receivedAt: 1_567_000_100_000)
        return session
    }

    /// Seconds per asset, zeros left out (an asset credited nothing may draw no segment).
    static func sums(_ pairs: [(String, Int64)]) -> [String: Int64] {
        pairs.reduce(into: [:]) { $0[$1.0, default: 0] += $1.1 }.filter { $0.value != 0 }
    }
}
