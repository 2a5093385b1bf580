@testable import CensusHTTP
@testable import CensusPostgres
@testable import CensusSQLite
@testable import CensusStore
@testable import MeterTables
import Foundation
import Hummingbird
import HummingbirdTesting
import MeterWire
import Testing
import NIOFoundationEssentialsCompat

/// A hostile trace, and how it was made.
struct HostileTrace: CustomTestStringConvertible, Sendable {
    let story: String
    let entries: [CallTraceEntry]

    var testDescription: String { story }

    init(_ story: String, _ build: (inout TraceBuilder) -> Void) {
        self.story = story
        var trace = TraceBuilder()
        build(&trace)
        entries = trace.entries
    }

    /// Playheads, as a sender may write them: any string.
    static func playhead(_ position: String, after seconds: Double = 1) -> (inout TraceBuilder) -> Void {
        { $0.add(.playheadPosition, ["position": position], after: seconds) }
    }

    static let all: [HostileTrace] = [
        HostileTrace("the issue's trace: a playhead at Int64.max, then at -Int64.max") { t in
            t.content()
            playhead("9223372036854775807")(&t); playhead("-9223372036854775807")(&t)
        },
        HostileTrace("Int64.min then Int64.max, and back") { t in
            t.play(); t.content()
            for position in ["-9223372036854775808", "9223372036854775807", "-9223372036854775808"] { playhead(position)(&t) }
        },
        HostileTrace("a jump of Int64.max seconds in content, each way") { t in
            t.play(); t.content()
            for position in ["0", "9223372036854775807", "9223372036854775806", "-9223372036854775808", "-9223372036854775807"] {
                playhead(position)(&t)
            }
        },
        HostileTrace("content back at Int64.max after an ad break (position plus slack)") { t in
            t.play(); t.content(); playhead("9223372036854775807")(&t)
            t.ad("midroll", "mid"); t.playheads(0...2); t.stop()
            t.content(); playhead("9223372036854775807")(&t); playhead("-9223372036854775808")(&t)
        },
        HostileTrace("a length of Int64.min and Int64.max (length minus slack)") { t in
            t.play()
            t.add(.loadMetadata, ["type": "content", "assetid": "a", "length": "-9223372036854775808"])
            playhead("-9223372036854775808")(&t); playhead("9223372036854775807")(&t)
            t.add(.loadMetadata, ["type": "content", "assetid": "b", "length": "9223372036854775807"])
            playhead("9223372036854775807")(&t); t.end()
        },
        HostileTrace("an ad whose first playhead is Int64.max") { t in
            t.play(); t.ad("preroll", "pre"); playhead("9223372036854775807")(&t); t.stop()
        },
        HostileTrace("calls 10³⁰⁰ seconds apart: stop, pause, resume, tags") { t in
            t.play(); t.content(); t.playheads(0...2); t.stop(after: 1e300)
            playhead("3", after: 1e300)(&t)
            t.tag(offset: 0, after: 1e300); t.stop(); t.play(); t.content(); t.tag(offset: 1, after: 1e300)
            t.tag(offset: 2, after: 1.7e308)
        },
        HostileTrace("times no sender may post (negative, infinite, NaN), stored all the same") { t in
            t.play(); t.content()
            playhead("1", after: -1e308)(&t); playhead("2", after: .infinity)(&t); playhead("3", after: -.infinity)(&t)
            playhead("4", after: .nan)(&t); t.stop(after: .nan); t.tag(offset: Int.max, after: .infinity)
            t.tag(offset: Int.min, after: .nan)
        },
        HostileTrace("sequence numbers out of order, repeated and at Int.max") { t in
            t.play(); t.staticPage("a"); t.staticPage("b"); t.release()
            t.add(.loadMetadata, ["type": "static", "assetid": "c", "section": "c"])
        },
        HostileTrace("control characters, bidirectional overrides and long text in every string") { t in
            let nasty = "\u{1B}]0;owned\u{07}\u{1B}[2J\u{9B}31m\u{202E}txt.exe\u{2028}" + String(repeating: "é", count: 5_000)
            t.add(.play, ["channelName": nasty])
            t.add(.loadMetadata, ["type": "content", "assetid": nasty, "length": nasty, "problems": nasty],
                  events: [TracedEvent(code: Int.min, isEvent: false, text: nasty)])
            playhead(nasty)(&t); t.stop()
            t.add(TracedCall.sendID3, ["length": nasty, "cid": nasty, "fdOffset": nasty])
        },
    ].map { hostile in
        // Sequence numbers a sender chose, for the trace that says so.
        guard hostile.story.hasPrefix("sequence numbers") else { return hostile }
        var entries = hostile.entries
        entries[1].seq = Int.max
        entries[2].seq = 1
        entries[3].seq = Int.max
        return HostileTrace(story: hostile.story, entries: entries)
    }

    init(story: String, entries: [CallTraceEntry]) {
        self.story = story
        self.entries = entries
    }
}

/// What a stranger can post to the open trace route, read back (issue "The census holds against
/// a hostile internet"): every trace gets a verdict and a timeline, the server keeps answering,
/// and nothing shown carries a control character.
@Suite struct HostileTraceTests {
    static let appid = "P00000000-0000-4000-8000-000000000001"

    func withApp(_ backend: Backend = .sqlite,
                 _ body: @escaping @Sendable (any TestClientProtocol, CensusServer) async throws -> Void) async throws {
        try await backend.withStore { store in
            let server = CensusServer(store: store)
            try await Application(router: server.router()).test(.router) { client in try await body(client, server) }
        }
    }

    static func post(_ client: any TestClientProtocol, session: String, _ entries: [CallTraceEntry]) async throws -> (HTTPResponse.Status, String) {
        let batch = CallTraceBatch(session: session, appid: appid, sdk: "al.1.0.0", entries: entries)
        return try await client.execute(uri: WireRoute.trace, method: .post, body: ByteBuffer(data: batch.body())) {
            ($0.status, String(buffer: $0.body).trimmingCharacters(in: .newlines))
        }
    }

    static func get(_ client: any TestClientProtocol, _ uri: String) async throws -> (HTTPResponse.Status, ByteBuffer) {
        try await client.execute(uri: uri, method: .get) { ($0.status, $0.body) }
    }

    /// Whether `text` holds anything ``TerminalText`` escapes, line feeds between lines aside.
    static func isSafeForATerminal(_ text: String) -> Bool {
        !text.unicodeScalars.contains { $0 != "\n" && TerminalText.needsEscape($0) }
    }

    @Test(arguments: HostileTrace.all)
    func everyTraceGetsAVerdictATimelineAndASafeTable(_ hostile: HostileTrace) throws {
        let report = CertificationEvaluator.evaluate(session: "s\u{1B}[2J", appid: "a", sdk: "al.1", trace: hostile.entries)
        #expect(report.results.map(\.id) == RulePack.standard.map(\.id))
        #expect(report.results.allSatisfy { $0.evidence.count <= Verdict.kept })
        let stored = hostile.entries.flatMap(\.pings).map { ping in
            StoredPing(pingID: ping.id, appid: "a", pingType: "duration", kind: .content, assetid: "c",
                       creditedSeconds: .max, createdAt: 0, rawQuery: "")
        }
        _ = SessionTimeline.segments(of: hostile.entries, stored: stored + stored)
        #expect(Self.isSafeForATerminal(CertificationTable.render(report)))
        #expect(Self.isSafeForATerminal(CertificationTable.summary([("\u{9B}2J", report)])))
        // The API's answer is JSON whatever the trace held.
        _ = try JSONEncoder().encode(report)
    }

    /// The request: five entries, stored (`200 stored 5 of 5`), then certified through
    /// the API and the dashboard's trace route; the process used to die on the first.
    @Test(arguments: Backend.available)
    func theOverflowTraceIsStoredCertifiedAndShown(_ backend: Backend) async throws {
        try await withApp(backend) { client, _ in
            let hostile = HostileTrace.all[0]
            #expect(hostile.entries.count == 5)
            #expect(try await Self.post(client, session: "overflow", hostile.entries) == (.ok, "stored 5 of 5"))
            for _ in 0..<2 {
                let (status, body) = try await Self.get(client, "/api/v1/certification?session=overflow")
                #expect(status == .ok)
                let answer = try JSONDecoder().decode(CertificationExportShape.self, from: Data(buffer: body))
                #expect(answer.reports.first?.calls == 5)
                let (traceStatus, trace) = try await Self.get(client, "/api/v1/sessions/overflow/trace")
                #expect(traceStatus == .ok)
                let shown = try JSONDecoder().decode(TraceShape.self, from: Data(buffer: trace))
                #expect(shown.timeline.first?.lastPosition == -9_223_372_036_854_775_807)
                #expect(try await Self.get(client, "/api/v1/sessions").0 == .ok)
                #expect(try await Self.get(client, "/healthz").0 == .ok)
            }
        }
    }

    /// Every hostile trace a sender can post (finite times only: the route refuses others) is
    /// stored and certified, one after another, on one server.
    @Test func everyPostableHostileTraceIsCertifiedByTheServer() async throws {
        try await withApp { client, _ in
            let postable = HostileTrace.all.filter { $0.entries.allSatisfy { $0.time.isFinite && $0.time >= 0 } }
            #expect(postable.count >= 8)
            for (index, hostile) in postable.enumerated() {
                var entries = hostile.entries
                // The route wants non-negative sequence numbers and takes the rest; 200 a batch.
                for offset in entries.indices where entries[offset].seq < 0 { entries[offset].seq = offset }
                let (status, _) = try await Self.post(client, session: "hostile-\(index)", entries)
                #expect(status == .ok, "\(hostile.story)")
                let (certified, _) = try await Self.get(client, "/api/v1/certification?session=hostile-\(index)")
                #expect(certified == .ok, "\(hostile.story)")
                #expect(try await Self.get(client, "/api/v1/sessions/hostile-\(index)/trace").0 == .ok, "\(hostile.story)")
            }
            #expect(try await Self.get(client, "/healthz").0 == .ok)
        }
    }

    /// The most a session may hold, 20,000 entries, posted as the SDK would (200 a batch), then
    /// certified and shown: every check and the timeline are linear or n·log n in the entries.
    @Test func aTwentyThousandEntryTraceIsCertifiedAndShown() async throws {
        let entries = Self.longTrace(entries: 20_000)
        try await withApp { client, _ in
            for start in stride(from: 0, to: entries.count, by: CallTraceBatch.maxEntries) {
                let part = Array(entries[start..<min(start + CallTraceBatch.maxEntries, entries.count)])
                #expect(try await Self.post(client, session: "long", part) == (.ok, "stored \(part.count) of \(part.count)"))
            }
            let (status, body) = try await Self.get(client, "/api/v1/certification?session=long")
            #expect(status == .ok)
            let report = try #require(try JSONDecoder().decode(CertificationExportShape.self, from: Data(buffer: body)).reports.first)
            #expect(report.calls == 20_000)
            #expect(report.results.first { $0.id == "test.staticNavigation" }?.status == .pass)
            #expect(report.results.first { $0.id == "playhead.everySecond" }?.status == .pass)
            let (traceStatus, trace) = try await Self.get(client, "/api/v1/sessions/long/trace")
            #expect(traceStatus == .ok)
            let timeline = try JSONDecoder().decode(TraceShape.self, from: Data(buffer: trace)).timeline
            #expect(timeline.filter { $0.type == "static" }.count > 1_000)
            #expect(timeline.filter { $0.type == "content" }.count > 500)
        }
    }

    /// A session of many short views: content with playheads, a stop, a static page that built a
    /// ping, again and again; `entries` exactly.
    static func longTrace(entries count: Int) -> [CallTraceEntry] {
        var trace = TraceBuilder()
        var round = 0
        while trace.entries.count < count {
            trace.play(); trace.content("ep\(round)"); trace.playheads(0...9); trace.stop()
            trace.staticPage("page\(round)"); trace.add(.staticEnd)
            round += 1
        }
        return Array(trace.entries.prefix(count))
    }

    /// Session ids that need escapes in a path name their session: the dashboard asks with
    /// `encodeURIComponent`, and the route decodes.
    @Test func pathParametersArePercentDecoded() async throws {
        let session = "a b/c%d-é€"
        let ascii = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyz0123456789-")
        let escaped = try #require(session.addingPercentEncoding(withAllowedCharacters: ascii))
        try await withApp { client, server in
            var trace = TraceBuilder()
            trace.play(); trace.content(); trace.playheads(0...3)
            #expect(try await Self.post(client, session: session, trace.entries).0 == .ok)
            let (status, body) = try await Self.get(client, "/api/v1/sessions/\(escaped)/trace")
            #expect(status == .ok)
            #expect(try JSONDecoder().decode(TraceShape.self, from: Data(buffer: body)).session == session)
            let (certified, _) = try await Self.get(client, "/api/v1/certification?session=\(escaped)")
            #expect(certified == .ok)

            let query = PingQueries.valid(pingID: "pd-1", session: escaped)
            #expect(try await Self.get(client, "/cgi-bin/gn?" + query).0 == .ok)
            #expect(try await server.store.sessions.pings(session: session).count == 1)
            let (pingsStatus, pings) = try await Self.get(client, "/api/v1/sessions/\(escaped)/pings")
            #expect(pingsStatus == .ok)
            #expect(String(buffer: pings).contains("pd-1"))

            let (bad, reason) = try await Self.get(client, "/api/v1/sessions/a%zz/trace")
            #expect(bad == .badRequest)
            #expect(String(buffer: reason).contains("session"))
        }
    }
}
