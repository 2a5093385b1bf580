import CensusHTTP
import CensusStore
import MeterTables
import Foundation
import MeterWire
import Testing

/// One cell of the rule table: a trace, a rule, and the result it must get.
struct RuleCase: CustomTestStringConvertible, Sendable {
    let rule: String
    let expected: RuleStatus
    let story: String
    let trace: @Sendable () -> TraceBuilder

    var testDescription: String { "\(rule) \(expected.rawValue): \(story)" }
}

/// A correct VOD stream with pre-, mid- and postroll, as the Ireland guide's Use Case 2 lays it out.
func vodWithAds(_ change: (inout TraceBuilder) -> Void = { _ in }) -> TraceBuilder {
    var trace = TraceBuilder()
    trace.play()
    trace.content()
    trace.ad("preroll", "pre"); trace.playheads(0...15); trace.stop()
    trace.content(); trace.playheads(0...300)
    trace.ad("midroll", "mid"); trace.playheads(0...30); trace.stop()
    trace.content(); trace.playheads(301...600)
    trace.end()
    trace.ad("postroll", "post"); trace.playheads(0...20); trace.stop()
    change(&trace)
    return trace
}

/// Every rule of the pack, walked cell by cell: passed, failed, and not exercised.
@Suite struct CertificationRuleTests {
    static let cases: [RuleCase] = [
        RuleCase(rule: "init.config", expected: .pass, story: "config answered") { TraceBuilder() },
        RuleCase(rule: "init.config", expected: .fail, story: "no config answer") { TraceBuilder(config: false) },
        RuleCase(rule: "init.debug", expected: .pass, story: "DEBUG") { TraceBuilder(debug: "DEBUG") },
        RuleCase(rule: "init.debug", expected: .pass, story: "the first letter, D") { TraceBuilder(debug: "d") },
        RuleCase(rule: "init.debug", expected: .fail, story: "INFO") { TraceBuilder(debug: "INFO") },
        RuleCase(rule: "trace.complete", expected: .pass, story: "every entry stored") { vodWithAds() },
        RuleCase(rule: "trace.complete", expected: .fail, story: "a batch of playheads lost") {
            var t = vodWithAds(); t.lose(100...149); return t
        },
        RuleCase(rule: "play.once", expected: .pass, story: "play, stop, play") {
            var t = TraceBuilder(); t.play(); t.content(); t.playheads(0...5); t.stop(); t.play(); return t
        },
        RuleCase(rule: "play.once", expected: .fail, story: "play again while playheads flow") {
            var t = TraceBuilder(); t.play(); t.content(); t.playheads(0...5); t.play(); t.playheads(6...10); return t
        },
        RuleCase(rule: "play.once", expected: .pass, story: "buffering without stop, then play again (guides)") {
            var t = TraceBuilder(); t.play(); t.content(); t.playheads(0...5); t.add(.play, after: 8); t.playheads(6...10); return t
        },
        RuleCase(rule: "play.once", expected: .notExercised, story: "no play") { TraceBuilder() },
        RuleCase(rule: "metadata.notBeforeEveryPlayhead", expected: .pass, story: "loadMetadata once") {
            var t = TraceBuilder(); t.play(); t.content(); t.playheads(0...10); return t
        },
        RuleCase(rule: "metadata.notBeforeEveryPlayhead", expected: .fail, story: "loadMetadata before each playhead") {
            var t = TraceBuilder(); t.play()
            for position: Int64 in 0...5 { t.content(); t.playhead(position) }
            return t
        },
        RuleCase(rule: "metadata.notBeforeEveryPlayhead", expected: .pass, story: "ads one playhead long between loads") {
            vodWithAds()
        },
        RuleCase(rule: "playhead.everySecond", expected: .pass, story: "every second") {
            var t = TraceBuilder(); t.play(); t.content(); t.playheads(0...20); return t
        },
        RuleCase(rule: "playhead.everySecond", expected: .fail, story: "every 5 s while playing") {
            var t = TraceBuilder(); t.play(); t.content(); t.playheads(0...4, every: 1)
            for position in stride(from: Int64(9), through: 60, by: 5) { t.playhead(position, after: 5) }
            return t
        },
        RuleCase(rule: "playhead.everySecond", expected: .pass, story: "a 10 s buffering stall (position still)") {
            var t = TraceBuilder(); t.play(); t.content(); t.playheads(0...10); t.playhead(10, after: 10); t.playheads(11...20)
            return t
        },
        RuleCase(rule: "interruption.stop", expected: .pass, story: "stop at a pause") {
            var t = TraceBuilder(); t.play(); t.content(); t.playheads(0...10); t.stop(); t.content(); t.playheads(11...20)
            return t
        },
        RuleCase(rule: "interruption.stop", expected: .fail, story: "playheads stop 40 s without stop") {
            var t = TraceBuilder(); t.play(); t.content(); t.playheads(0...10); t.playhead(10, after: 40); return t
        },
        RuleCase(rule: "ads.playheadRestart", expected: .pass, story: "ads from 0") { vodWithAds() },
        RuleCase(rule: "ads.playheadRestart", expected: .fail, story: "a midroll carrying the content's position") {
            var t = TraceBuilder(); t.play(); t.content(); t.playheads(0...60)
            t.ad("midroll", "mid"); t.playheads(61...90); t.stop(); return t
        },
        RuleCase(rule: "ads.playheadRestart", expected: .notExercised, story: "no ads") {
            var t = TraceBuilder(); t.play(); t.content(); t.playheads(0...60); return t
        },
        RuleCase(rule: "ads.stop", expected: .pass, story: "stop after each ad") { vodWithAds() },
        RuleCase(rule: "ads.stop", expected: .fail, story: "content loaded right after the preroll") {
            var t = TraceBuilder(); t.play(); t.ad("preroll", "pre"); t.playheads(0...15)
            t.content(); t.playheads(0...30); return t
        },
        RuleCase(rule: "content.resumes", expected: .pass, story: "content goes on after the midroll") { vodWithAds() },
        RuleCase(rule: "content.resumes", expected: .fail, story: "content restarts at 0 after the midroll") {
            var t = TraceBuilder(); t.play(); t.content(); t.playheads(0...300)
            t.ad("midroll", "mid"); t.playheads(0...30); t.stop(); t.content(); t.playheads(0...30); return t
        },
        RuleCase(rule: "content.end", expected: .pass, story: "end at content end") { vodWithAds() },
        RuleCase(rule: "content.end", expected: .fail, story: "played to the end, released without end") {
            var t = TraceBuilder(); t.play(); t.content(length: 60); t.playheads(0...60); t.stop(); t.release(); return t
        },
        RuleCase(rule: "content.end", expected: .fail, story: "the next episode starts without end") {
            var t = TraceBuilder(); t.play(); t.content("ep1", length: 60); t.playheads(0...60); t.stop()
            t.content("ep2", length: 60); t.playheads(0...5); return t
        },
        RuleCase(rule: "content.end", expected: .notExercised, story: "live content") {
            var t = TraceBuilder(); t.play(); t.content(length: 86_400); t.playheads(0...60); return t
        },
        RuleCase(rule: "metadata.market", expected: .pass, story: "complete metadata") { vodWithAds() },
        RuleCase(rule: "metadata.market", expected: .fail, story: "an error on loadMetadata") {
            var t = TraceBuilder(); t.play()
            t.content(events: [TracedEvent(code: 1004, isEvent: false, text: "loadMetadata: 'airdate' is missing")])
            return t
        },
        RuleCase(rule: "test.vodWithAds", expected: .pass, story: "the Ireland sequence") { vodWithAds() },
        RuleCase(rule: "test.vodWithAds", expected: .fail, story: "no stop after the midroll") {
            var t = TraceBuilder(); t.play(); t.content()
            t.ad("preroll", "pre"); t.playheads(0...15); t.stop()
            t.content(); t.playheads(0...300); t.ad("midroll", "mid"); t.playheads(0...30)
            t.content(); t.playheads(301...600); t.end()
            t.ad("postroll", "post"); t.playheads(0...20); t.stop(); return t
        },
        RuleCase(rule: "test.vodWithAds", expected: .notExercised, story: "no midroll") {
            var t = TraceBuilder(); t.play(); t.content(); t.playheads(0...600); t.end(); return t
        },
        RuleCase(rule: "test.seekForward", expected: .pass, story: "a seek then playheads from there") {
            var t = TraceBuilder(); t.play(); t.content(); t.playheads(0...10); t.playheads(200...210); return t
        },
        RuleCase(rule: "test.seekForward", expected: .fail, story: "a seek then silence") {
            var t = TraceBuilder(); t.play(); t.content(); t.playheads(0...10); t.playhead(200); t.stop(after: 20); return t
        },
        RuleCase(rule: "test.seekForward", expected: .notExercised, story: "no seek") {
            var t = TraceBuilder(); t.play(); t.content(); t.playheads(0...100); return t
        },
        RuleCase(rule: "test.rewind", expected: .pass, story: "a rewind then playheads from there") {
            var t = TraceBuilder(); t.play(); t.content(); t.playheads(0...100); t.playheads(50...60); return t
        },
        RuleCase(rule: "test.rewind", expected: .fail, story: "a rewind then silence") {
            var t = TraceBuilder(); t.play(); t.content(); t.playheads(0...100); t.playhead(50); t.stop(after: 20); return t
        },
        RuleCase(rule: "test.pauseResume", expected: .pass, story: "stop, 60 s, loadMetadata, playheads") {
            var t = TraceBuilder(); t.play(); t.content(); t.playheads(0...10); t.stop()
            t.add(.play, after: 60); t.content(); t.playheads(11...20); return t
        },
        RuleCase(rule: "test.pauseResume", expected: .pass, story: "stop, 60 s, playheads only (Ireland)") {
            var t = TraceBuilder(); t.play(); t.content(); t.playheads(0...10); t.stop(); t.playhead(11, after: 60); return t
        },
        RuleCase(rule: "test.pauseResume", expected: .pass, story: "stop, 60 s, loadMetadata, playheads (API reference)") {
            var t = TraceBuilder(); t.play(); t.content(); t.playheads(0...10); t.stop()
            t.content(); t.playhead(11, after: 60); return t
        },
        RuleCase(rule: "test.pauseResume", expected: .fail, story: "stop, 60 s, the content restarted from 0") {
            var t = TraceBuilder(); t.play(); t.content(); t.playheads(0...100); t.stop()
            t.add(.play, after: 60); t.content(); t.playheads(0...10); return t
        },
        RuleCase(rule: "test.pauseResume", expected: .notExercised, story: "stop, 2 s, playheads") {
            var t = TraceBuilder(); t.play(); t.content(); t.playheads(0...10); t.stop(); t.playhead(11, after: 2); return t
        },
        RuleCase(rule: "test.staticNavigation", expected: .pass, story: "two pages, each measured") {
            var t = TraceBuilder(); t.staticPage("home"); t.add(.wakeUp, after: 30); t.staticPage("news"); return t
        },
        RuleCase(rule: "test.staticNavigation", expected: .fail, story: "a page that built no ping") {
            var t = TraceBuilder(); t.staticPage("home", ping: false); t.staticPage("news"); return t
        },
        RuleCase(rule: "test.staticNavigation", expected: .notExercised, story: "one page") {
            var t = TraceBuilder(); t.staticPage("home"); return t
        },
        RuleCase(rule: "test.dtvrTwoMinutes", expected: .pass, story: "13 tags of 249 characters") {
            var t = TraceBuilder(); t.play(); for index in 0...12 { t.tag(offset: 100 + 10 * index) }; return t
        },
        RuleCase(rule: "test.dtvrTwoMinutes", expected: .fail, story: "a shortened tag") {
            var t = TraceBuilder(); t.play(); for index in 0...12 { t.tag(offset: 100 + 10 * index, length: index == 5 ? 200 : 249) }
            return t
        },
        RuleCase(rule: "test.dtvrTwoMinutes", expected: .notExercised, story: "a minute of tags") {
            var t = TraceBuilder(); t.play(); for index in 0...5 { t.tag(offset: 100 + 10 * index) }; return t
        },
        RuleCase(rule: "test.dtvrPause", expected: .pass, story: "stop, 40 s, play, loadMetadata, sendID3") {
            var t = TraceBuilder(); t.play(); t.tag(offset: 100); t.tag(offset: 110); t.stop()
            t.add(.play, after: 40); t.add(.loadMetadata, ["type": "content", "assetid": "live"]); t.tag(offset: 160, after: 0)
            return t
        },
        RuleCase(rule: "test.dtvrPause", expected: .fail, story: "tags resume without play") {
            var t = TraceBuilder(); t.play(); t.tag(offset: 100); t.stop(); t.tag(offset: 150, after: 40); return t
        },
        RuleCase(rule: "privacy.optOut", expected: .pass, story: "pings after the opt-out say so") {
            var t = TraceBuilder(); t.optOut(true); t.ping("p1", query: "uoo=true&c9=devid,"); return t
        },
        RuleCase(rule: "privacy.optOut", expected: .fail, story: "a ping after the opt-out without uoo") {
            var t = TraceBuilder(); t.optOut(true); t.ping("p1", query: "uoo=&c9=devid,abc"); return t
        },
        RuleCase(rule: "privacy.optOut", expected: .notExercised, story: "no opt-out") { TraceBuilder() },
        RuleCase(rule: "privacy.anonymous", expected: .pass, story: "empty identifiers") {
            var t = TraceBuilder(); t.ping("p1", query: "uoo=true&c9=devid,&c1=nuid,&ve_id=&fp_id="); return t
        },
        RuleCase(rule: "privacy.anonymous", expected: .fail, story: "a device id while opted out") {
            var t = TraceBuilder(); t.ping("p1", query: "uoo=true&c9=devid,abc123"); return t
        },
    ]

    @Test(arguments: cases) func rule(_ cell: RuleCase) {
        let trace = cell.trace()
        #expect(trace.status(cell.rule) == cell.expected, "\(trace.evidence(cell.rule))")
    }

    /// Every rule has cells for both outcomes that matter, so none is a rule that cannot fail.
    @Test func everyRuleHasAPassingAndAFailingCell() {
        for rule in RulePack.standard {
            let statuses = Set(Self.cases.filter { $0.rule == rule.id }.map(\.expected))
            #expect(statuses.contains(.pass), "\(rule.id) has no passing cell")
            #expect(statuses.contains(.fail), "\(rule.id) has no failing cell")
        }
    }

    /// docs/certification.md names every rule of the pack with its source.
    @Test func theDocumentListsEveryRule() throws {
        // Server/Tests/CensusTests/ → the repository's root.
        let document = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("docs/certification.md")
        let text = try String(contentsOf: document, encoding: .utf8)
        for rule in RulePack.standard {
            #expect(text.contains("`\(rule.id)`"), "docs/certification.md does not list \(rule.id)")
        }
    }

    /// A failure latches: a correct call afterwards does not turn the rule green.
    @Test func failuresLatch() {
        var trace = TraceBuilder()
        trace.play()
        for position: Int64 in 0...3 { trace.content(); trace.playhead(position) }
        trace.playheads(4...100)
        #expect(trace.status("metadata.notBeforeEveryPlayhead") == .fail)
    }

    /// The exported report carries a hash that any edit breaks.
    @Test func theReportIsSealed() throws {
        var report = CertificationEvaluator.evaluate(session: "s", appid: "a", sdk: "al.1", trace: vodWithAds().entries)
        #expect(report.isIntact)
        #expect(report.passed)
        let data = try JSONEncoder().encode(report)
        #expect(try JSONDecoder().decode(CertificationReport.self, from: data).isIntact)
        report.results[0].status = .fail
        #expect(!report.isIntact)
    }
}
