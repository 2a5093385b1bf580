import AppMeter
import BrowserCore
import Foundation
import MeterWire
import Testing

/// A page measured by the browser SDK credits what an app measured by the Swift SDK credits for the
/// same calls at the same times (the issue on the browser SDK): the guide's flows run through
/// ``BrowserInstance`` (the code compiled to WebAssembly) and through `NielsenAppApi`, and the
/// credit fields of every ping must agree, in order. scripts/browser-check runs the same flows in
/// Chromium and expects these figures from the census.
@Suite struct BrowserParityTests {
    /// One call of a flow, `after` virtual seconds.
    enum Step {
        case load([String: String])
        case playhead(ClosedRange<Int64>)
        case stop(Int64)
        case end(Int64)
        case wait(Double)
    }

    static func content(_ id: String, length: String = "60") -> [String: String] {
        ["type": "content", "isAudio": "true", "assetid": id, "program": "Browser check", "title": "Episode " + id,
         "length": length, "airdate": "19700101 00:00:00", "isfullepisode": "y", "adloadtype": "2"]
    }

    static let flows: [(name: String, steps: [Step])] = [
        ("audio with preroll, pause and midroll", [
            .load(content("AOD-1")), .load(["type": "preroll", "assetid": "AD-PRE"]), .playhead(0...10), .stop(10),
            .load(content("AOD-1")), .playhead(0...20), .stop(20), .wait(30), .load(content("AOD-1")), .playhead(20...30),
            .load(["type": "midroll", "assetid": "AD-MID"]), .playhead(0...5), .stop(5),
            .load(content("AOD-1")), .playhead(30...60), .end(60),
        ]),
        ("live with Unix-second playheads", [
            .load(content("LIVE-1", length: "86400")), .playhead(1_700_000_100...1_700_000_160), .end(1_700_000_160),
        ]),
        ("longer than the duration-ping interval", [
            .load(content("LONG-1", length: "300")), .playhead(0...150), .end(150),
        ]),
    ]

    /// The fields that decide credit: ping type, media type, asset, asset class, seconds.
    static func creditFields(_ parameters: [(name: String, value: String)]) -> String {
        func value(_ field: PingField) -> String { parameters.first { $0.name == field.name }?.value ?? "" }
        return [PingField.pingType, .mediaType, .assetID, .assetClass, .creditedSeconds].map(value).joined(separator: " ")
    }

    @Test(arguments: flows.indices)
    func aPageCreditsWhatAnAppCredits(_ index: Int) async throws {
        let steps = Self.flows[index].steps
        let start = 1_700_000_000.0

        let app = MeterHarness(appInfo: MeterHarness.appInfo(sfcode: "it"), startTime: start)
        for step in steps {
            switch step {
            case .load(let values): app.api.loadMetadata(values)
            case .playhead(let positions): app.play(positions)
            case .stop(let position): app.api.playheadPosition(position); app.api.stop()
            case .end(let position): app.api.playheadPosition(position); app.api.end()
            case .wait(let seconds): app.clock.advance(by: seconds)
            }
        }
        let appPings = await app.pings().map { Self.creditFields($0.parameters) }

        var settings = try BrowserSettings.parse("apid=\(MeterHarness.newAppID())&name=player&sfcode=it&interval=60").get()
        settings.browserID = "browser"
        var lines = BrowserEffectLines()
        let page = BrowserInstance(settings, at: MeterInstant(secondsSince1970: start), into: &lines)
        var time = start
        for step in steps {
            switch step {
            case .load(let values):
                page.handle(.loadMetadata(values), at: MeterInstant(secondsSince1970: time), into: &lines)
            case .playhead(let positions):
                for position in positions {
                    time += 1
                    page.handle(.setPlayheadPosition(position), at: MeterInstant(secondsSince1970: time), into: &lines)
                }
            case .stop(let position): page.handle(.stop(position), at: MeterInstant(secondsSince1970: time), into: &lines)
            case .end(let position): page.handle(.end(position), at: MeterInstant(secondsSince1970: time), into: &lines)
            case .wait(let seconds):
                time += seconds
                page.wake(at: MeterInstant(secondsSince1970: time), into: &lines)
            }
        }
        let pagePings = lines.text.split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false) }
            .filter { $0.first == "send" }
            .map { Self.creditFields(try! PingQuery.parameters($0[3]).get()) }

        #expect(!pagePings.isEmpty)
        #expect(pagePings == appPings, "\(Self.flows[index].name)\npage: \(pagePings)\napp:  \(appPings)")
    }

    /// The market a page is held to (decisions B11a): the census's for the apid (`market=`, from
    /// the configuration file), else the page's `nol_sfcode` (`sfcode=`), else the generic one.
    static let markets: [(page: String, census: String, market: String, overridden: String?)] = [
        ("", "", "Generic", nil),
        ("it", "", "Italy", nil),
        ("", "it", "Italy", nil),       // the guide's page, as written, on a census that knows the apid is Italian
        ("dcr", "it", "Italy", "dcr"),  // the census's market wins, and the page is told
        ("it", "it", "Italy", nil),
        ("IT", "pl", "Poland", "it"),
    ]

    @Test(arguments: markets)
    func aPageIsHeldToTheCensussMarketElseItsOwn(_ row: (page: String, census: String, market: String, overridden: String?)) throws {
        let apid = MeterHarness.newAppID()
        let settings = try BrowserSettings.parse("apid=\(apid)&name=player&sfcode=\(row.page)&market=\(row.census)&debug=1").get()
        #expect(MarketProfile.forSFCode(settings.sfcode).name == row.market)
        #expect(settings.overriddenPageSFCode == row.overridden)
        var lines = BrowserEffectLines()
        _ = BrowserInstance(settings, at: MeterInstant(secondsSince1970: 1_700_000_000), into: &lines)
        #expect(lines.text.contains("is not used: the census measures") == (row.overridden != nil), "\(lines.text)")
    }

    /// The guide's page exactly as the Browser SDK guide writes it: `nlsQ(apid, name,
    /// {nol_sdkDebug: "DEBUG"})`, no `nol_sfcode`. On a census that has the apid as Italian
    /// (`meter apps set --sfcode it`), its content is held to Italy's rules: an `adloadtype` other
    /// than "2" and an `assetid` over 32 characters are reported; on one that has no market for
    /// it, they are not.
    @Test(arguments: [("it", true), ("", false)])
    func theGuidesItalianPageIsHeldToItalysRules(_ censusMarket: String, _ italian: Bool) throws {
        let settings = try BrowserSettings.parse(
            "apid=\(MeterHarness.newAppID())&name=myPlayerName&sfcode=&market=\(censusMarket)&debug=1").get()
        var lines = BrowserEffectLines()
        let page = BrowserInstance(settings, at: MeterInstant(secondsSince1970: 1_700_000_000), into: &lines)
        // The guide's "Example Audio Content Object", with a linear ad load and a 40-character assetid.
        let content = ["type": "content", "isAudio": "true", "assetid": String(repeating: "A", count: 40),
                       "program": "program name", "title": "episode title", "length": "1020",
                       "airdate": "19700101 00:00:00", "isfullepisode": "y", "adloadtype": "1"]
        page.handle(.loadMetadata(content), at: MeterInstant(secondsSince1970: 1_700_000_001), into: &lines)
        let events = lines.text.split(separator: "\n").filter { $0.hasPrefix("event\t") }.joined(separator: "\n")
        #expect(events.contains("Italy allows at most 32") == italian, "\(events)")
        #expect(events.contains("Italy's guide says it has to be '2'") == italian, "\(events)")
    }

    @Test func anOptedOutBrowserSendsNoIdentifier() throws {
        let settings = try BrowserSettings.parse("apid=\(MeterHarness.newAppID())&name=player&nuid=abc&optout=1").get()
        var lines = BrowserEffectLines()
        let page = BrowserInstance(settings, at: MeterInstant(secondsSince1970: 1_700_000_000), into: &lines)
        page.handle(.loadMetadata(Self.content("OPT-1")), at: MeterInstant(secondsSince1970: 1_700_000_001), into: &lines)
        page.handle(.setPlayheadPosition(0), at: MeterInstant(secondsSince1970: 1_700_000_001), into: &lines)
        let send = try #require(lines.text.split(separator: "\n").first { $0.hasPrefix("send\t") })
        let parameters = try PingQuery.parameters(send.split(separator: "\t", omittingEmptySubsequences: false)[3]).get()
        func value(_ field: PingField) -> String? { parameters.first { $0.name == field.name }?.value }
        #expect(value(.userOptOut) == "true")
        #expect(value(.deviceID) == PingField.deviceID.prefix)
        #expect(!send.contains("abc"))
    }

    @Test func aPageWithDebugTracesItsCallsAsAnAppDoes() throws {
        let apid = MeterHarness.newAppID()
        let settings = try BrowserSettings.parse("apid=\(apid)&name=player&nuid=abc&debug=1&sfcode=it").get()
        var lines = BrowserEffectLines()
        let page = BrowserInstance(settings, at: MeterInstant(secondsSince1970: 1_700_000_000), into: &lines)
        page.handle(.loadMetadata(Self.content("TRACE-1")), at: MeterInstant(secondsSince1970: 1_700_000_001), into: &lines)
        for second in 0...3 {
            page.handle(.setPlayheadPosition(Int64(second)), at: MeterInstant(secondsSince1970: 1_700_000_002 + Double(second)), into: &lines)
        }
        page.handle(.leave, at: MeterInstant(secondsSince1970: 1_700_000_006), into: &lines)
        let batches = try lines.text.split(separator: "\n").filter { $0.hasPrefix("trace\t") }
            .map { try CallTraceBatch.decode(Data($0.dropFirst("trace\t".count).utf8)).get() }
        let entries = batches.flatMap(\.entries)
        #expect(batches.allSatisfy { $0.appid == apid && $0.sdk == "aw.1.0.0" })
        #expect(entries.map(\.seq) == Array(0..<entries.count))
        #expect(entries.first?.call == "init")
        #expect(entries.first?[.sdkDebug] == "debug")
        #expect(entries.contains { $0.call == "loadMetadata" && $0[.assetid] == "TRACE-1" })
        #expect(entries.filter { $0.call == "playheadPosition" }.count == 4)
        #expect(entries.last?.call == "release")
        #expect(entries.flatMap(\.pings).count >= 2)
    }

    @Test func aPageWithoutDebugTracesNothing() throws {
        let settings = try BrowserSettings.parse("apid=\(MeterHarness.newAppID())&name=player").get()
        var lines = BrowserEffectLines()
        let page = BrowserInstance(settings, at: MeterInstant(secondsSince1970: 1_700_000_000), into: &lines)
        page.handle(.loadMetadata(Self.content("QUIET-1")), at: MeterInstant(secondsSince1970: 1_700_000_001), into: &lines)
        page.handle(.leave, at: MeterInstant(secondsSince1970: 1_700_000_002), into: &lines)
        #expect(!lines.text.contains("trace\t"))
    }

    @Test func aPlayheadIsReadAsWholeSeconds() {
        #expect(BrowserCall.wholeSeconds("12") == 12)
        #expect(BrowserCall.wholeSeconds("12.9") == 12)
        #expect(BrowserCall.wholeSeconds("-1.5") == -2)
        #expect(BrowserCall.wholeSeconds("1700000000") == 1_700_000_000)
        #expect(BrowserCall.wholeSeconds("") == nil)
        #expect(BrowserCall.wholeSeconds("12a") == nil)
        #expect(BrowserCall.wholeSeconds("1e3") == nil)
        #expect(BrowserCall.wholeSeconds("9999999999999999") == nil)
    }

    @Test func aCallTheGuideDoesNotHaveIsReported() {
        guard case .failure(let error) = BrowserCall.parse("play\n") else { Issue.record("play was accepted"); return }
        #expect(error.message.contains("is not one of loadMetadata"))
        guard case .failure(let bad) = BrowserCall.parse("setPlayheadPosition\np=abc") else { Issue.record("abc was accepted"); return }
        #expect(bad.code == .invalidPlayheadPosition)
    }

    @Test func thePagesOwnSignalsCannotBeCalledByThePage() {
        for name in ["leave", "hidden", "visible", "Leave"] {
            guard case .failure(let error) = BrowserCall.parse(name + "\n") else { Issue.record("\(name) was accepted"); continue }
            #expect(error.message.contains("is not one of loadMetadata"))
        }
        #expect(BrowserCall.parse(BrowserCall.pageSignalPrefix + "leave\n") == .success(.leave))
        #expect(BrowserCall.parse(BrowserCall.pageSignalPrefix + "hidden\n") == .success(.hidden))
        #expect(BrowserCall.parse(BrowserCall.pageSignalPrefix + "visible\n") == .success(.visible))
    }

    @Test func settingsRefuseAnApidThatIsNotOne() {
        guard case .failure(let error) = BrowserSettings.parse("apid=nope&name=x") else { Issue.record("accepted"); return }
        #expect(error.code == .emptyAppID)
    }

    @Test func aStoredPingIsSentWithItsSendTime() throws {
        let query = try #require(BrowserInstance.sendQuery(
            "prd=dcr&c27=cln,10&pingid=abc", at: MeterInstant(secondsSince1970: 1_700_000_123), recovered: true, prefixLength: 40))
        #expect(query.hasPrefix("prd=dcr&c27=cln,10&pingid=abc&recovered=1&c62=sendTime,1700000123&rnd="))
    }

    /// A playing page writes its checkpoint whole once and then, every five seconds, only its
    /// credit form (decisions.md D14); a later page applies the last form to the checkpoint, and
    /// gets the checkpoint the engine would have written whole.
    @Test func aCheckpointsCreditFormAppliedGivesTheWholeCheckpoint() throws {
        let start = 1_700_000_000.0
        var settings = try BrowserSettings.parse("apid=\(MeterHarness.newAppID())&name=player&interval=60").get()
        settings.browserID = "browser"
        var lines = BrowserEffectLines()
        let page = BrowserInstance(settings, at: MeterInstant(secondsSince1970: start), into: &lines)
        page.handle(.loadMetadata(Self.content("FORM-1", length: "600")), at: MeterInstant(secondsSince1970: start), into: &lines)
        for position in Int64(0)...21 {
            page.handle(.setPlayheadPosition(position), at: MeterInstant(secondsSince1970: start + 1 + Double(position)), into: &lines)
        }
        let fields = lines.text.split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
        let wholes = fields.filter { $0.first == "checkpoint" }
        let forms = fields.filter { $0.first == "credit" }
        #expect(wholes.count == 1)
        #expect(forms.map { $0.count } == [5, 5, 5])
        let whole = try #require(wholes.first), form = try #require(forms.last)
        #expect(form[1] == whole[1] && form[2] == whole[2])   // its slot and its ping
        let seconds = try #require(Int64(form[3])), created = try #require(Int64(form[4]))
        #expect(seconds == 20 && created == 1_700_000_021)

        let applied = BrowserInstance.creditedQuery(whole[3], pingID: form[2], seconds: seconds, created: created)
        let before = try PingQuery.parameters(Substring(whole[3])).get(), after = try PingQuery.parameters(Substring(applied)).get()
        #expect(after.map(\.name) == before.map(\.name))
        for (old, new) in zip(before, after) {
            switch old.name {
            case PingField.creditedSeconds.name: #expect(new.value == "cln,20")
            case PingField.createdAt.name: #expect(new.value == "createtm,1700000021")
            default: #expect(new.value == old.value, "\(old.name)")
            }
        }
        // Another ping's form (an earlier minute's) changes nothing, nor does a form for a text
        // that is not a query.
        #expect(BrowserInstance.creditedQuery(whole[3], pingID: "another", seconds: seconds, created: created) == whole[3])
        #expect(BrowserInstance.creditedQuery("not a query %", pingID: form[2], seconds: seconds, created: created) == "not a query %")
    }
}
