import AppMeter
@testable import CensusHTTP
@testable import CensusPostgres
@testable import CensusSQLite
@testable import CensusStore
@testable import MeterTables
import Foundation
import MeterWire
import NielsenAppApi
import Testing

/// The census credits DTVR from the tag pings it stored (decisions.md T6, docs/protocol.md §2b,
/// §5): with the SDK's own rule, falling back to the duration pings of sessions that sent no tags,
/// and showing where the SDK's claim and the tags disagree.
@Suite struct DTVRTagCreditTests {
    static let cid = "R8WHe7pEBeqBhu8jTeXydg=="
    static let appid = "P00000000-0000-4000-8000-0000000000d7"
    static let start: Int64 = 1_700_000_000

    /// A tag ping's query, as the SDK builds it (the fields the census reads).
    static func tagQuery(
        _ id: String, session: String = "s1", offset: String, timeMs: String, created: Int64 = start, credited: Int = 0,
        cid: String = cid, channel: String = "One"
    ) -> String {
        let escapedCID = cid.replacingOccurrences(of: "=", with: "%3D").replacingOccurrences(of: "+", with: "%2B")
        return "prd=dtvr&asn=\(channel)&c13=asid,\(appid)&at=id3&rt=video&c27=cln,\(credited)&st=dtvr&ai=\(escapedCID)&c3=st,c"
            + "&c58=isLive,true&c59=sesid,\(session)&c61=createtm,\(created)&fdcid=\(escapedCID)&pccid=&fdoff=\(offset)&pcoff="
            + "&id3tm=\(timeMs)&pingid=\(id)"
    }

    /// A DTVR view or duration ping's query, as the SDK (or an original SDK, without `pingid`) builds it.
    static func durationQuery(_ id: String?, session: String = "s1", at: String = "timer", credited: Int, created: Int64 = start) -> String {
        let escapedCID = cid.replacingOccurrences(of: "=", with: "%3D")
        return "prd=dtvr&asn=One&c13=asid,\(appid)&at=\(at)&rt=video&c27=cln,\(credited)&st=dtvr&ai=\(escapedCID)&c3=st,c"
            + "&c58=isLive,true&c59=sesid,\(session)&c61=createtm,\(created)&fdcid=\(escapedCID)&fdoff=46136"
            + (id.map { "&pingid=\($0)" } ?? "")
    }

    /// Validates, bounds and stores `queries` as the census's ping route does.
    static func store(_ queries: [String], in store: PingStore, receivedAt: Int64 = start + 600) async throws {
        var pings: [IncomingPing] = []
        for query in queries {
            var ping = try PingValidator.validate(query: Substring(query), uriLength: query.utf8.count + 12).get()
            CreditBounds.apply(to: &ping, interval: 60, receivedAt: receivedAt)
            pings.append(ping)
        }
        for chunk in stride(from: 0, to: pings.count, by: 500) {
            _ = try await store.insert(Array(pings[chunk..<min(chunk + 500, pings.count)]), receivedAt: receivedAt * 1000)
        }
    }

    /// Thirteen tags 10 s apart: two minutes.
    static func twoMinutesOfTags(session: String = "s1") -> [String] {
        (0..<13).map { index in
            tagQuery("\(session)-t\(index)", session: session, offset: String(46_016 + 10 * index),
                     timeMs: String(start * 1000 + Int64(index) * 10_000 + 137), created: start + Int64(index) * 10)
        }
    }

    // MARK: The SDK and the census

    /// The SDK sends every distinct tag; the census stores them and credits the seconds the SDK
    /// credited: a two-minute stream, a pause of 30 s on the live channel (a new session whose
    /// first tag credits nothing), and a channel change.
    @Test(arguments: Backend.available)
    func aSessionsTagsAreStoredAndCreditedAsTheSDKCreditsThem(_ backend: Backend) async throws {
        try await backend.withCensus { census in
            let appid = "P" + UUID().uuidString
            let clock = VirtualClock(start: Double(Self.start))
            let environment = MeterEnvironment(clock: clock, transport: URLSessionTransport(timeout: 10), storage: InMemoryStorage(),
                                               measuresAppRun: false)
            let api = try #require(NielsenAppApi(
                appInfo: ["appid": appid, "appname": "t", "appversion": "1", "nol_collectorURL": census.baseURL],
                delegate: nil, environment: environment))
            await api.waitUntilConfigured()
            func tags(_ cid: String, from offset: Int, count: Int, repeated: Bool = false) {
                for index in 0..<count {
                    clock.advance(by: 10)
                    let tag = "www.nielsen.com/X100zdCIGeIlgZnkYj6UvQ==/\(cid)/"
                        + "AAICoyitYqlxT7n6aZ0oMCGheFi4CXFp46AMUPZz1lMr_M9tr3_cjee1SHqxrOiVerMDLeyn9xzocZSKwi746Re8vNOtpNCAZjYABs_J0R25IHpvOc1HS8QHGgD5TgOJeS6gX100zdCIGeIlgZnkYj6UvVJWFNhSVhTiPE0="
                        + "/00000/\(String(format: "%05d", offset + 10 * index))/00"
                    api.sendID3(tag)
                    if repeated { api.sendID3(tag) }
                }
            }
            let other = "pI-X5FFk07770SXf2ZbI6g=="
            api.play(["channelName": "One"])
            api.loadMetadata(["type": "content", "channelName": "One", "adModel": "1"])
            tags(Self.cid, from: 46_016, count: 13, repeated: true)     // 120 s
            api.stop()
            clock.advance(by: 30)
            api.play(["channelName": "One"])
            api.loadMetadata(["type": "content", "channelName": "One", "adModel": "1"])
            tags(Self.cid, from: 46_186, count: 4)                       // +40 s on the stream: 30 s
            api.stop()
            api.play(["channelName": "Two"])
            api.loadMetadata(["type": "content", "channelName": "Two", "adModel": "1"])
            tags(other, from: 10_000, count: 7)                          // 60 s
            api.end()
            await api.meter!.flush(advancing: clock)
            let sdk = api.meter!.snapshot.creditedSeconds
            #expect(sdk == [AssetKey(.dtvr, Self.cid): 150, AssetKey(.dtvr, other): 60])

            let store = census.server.store
            let query = ReportQuery(appid: appid)
            let rows = try await store.reports.report(query).filter { $0.kind == .dtvr }
            #expect(rows.map { "\($0.assetid) \($0.creditedSeconds)" } == ["\(Self.cid) 150", "\(other) 60"].sorted())
            #expect(rows.allSatisfy { $0.tagCheck?.disagreeingSessions == 0 && $0.tagCheck?.tagSeconds == $0.tagCheck?.sdkSeconds })
            let byChannel = try await store.reports.dtvrReport(query)
            #expect(byChannel.map { "\($0.channel) \($0.creditedSeconds) \($0.tagCheck?.tagSeconds ?? -1) \($0.sessions)" }
                    == ["One 150 150 2", "Two 60 60 1"])
            // Every distinct tag is stored once: 13 + 4 + 7.
            let sessions = try await store.reports.dtvrTaggedSessions(query)
            #expect(sessions.count == 3)
            let stored = try await census.server.store.counts().pings
            #expect(stored == Int64(api.meter!.snapshot.pingsBuilt))
        }
    }

    /// The original SDKs and AppMeter before tag pings send duration pings only: credited by them, as before.
    @Test(arguments: Backend.available)
    func aSessionWithOnlyDurationPingsIsCreditedByThem(_ backend: Backend) async throws {
        try await backend.withStore { store in
            try await Self.store([Self.durationQuery(nil, at: "view", credited: 0), Self.durationQuery(nil, credited: 60, created: Self.start + 60),
                                  Self.durationQuery(nil, credited: 60, created: Self.start + 120)], in: store)
            let rows = try await store.reports.report(ReportQuery(appid: Self.appid))
            #expect(rows.map { "\($0.kind) \($0.creditedSeconds) \($0.views)" } == ["dtvr 120 1"])
            #expect(rows.first?.tagCheck == nil)
            let dtvr = try await store.reports.dtvrReport(ReportQuery(appid: Self.appid))
            #expect(dtvr.map(\.creditedSeconds) == [120] && dtvr.first?.tagCheck == nil)
        }
    }

    /// The SDK's duration pings claim two minutes; its tags cover one: the census credits the
    /// tags and the report shows both figures and the disagreement.
    @Test(arguments: Backend.available)
    func theReportShowsWhereTheSDKClaimsMoreThanTheTagsCover(_ backend: Backend) async throws {
        try await backend.withStore { store in
            let oneMinute = Array(Self.twoMinutesOfTags().prefix(7))
            let claims = [Self.durationQuery("v", at: "view", credited: 0), Self.durationQuery("d1", credited: 60),
                          Self.durationQuery("d2", credited: 60)]
            // A second session agrees: two minutes of tags, two minutes claimed.
            let honest = Self.twoMinutesOfTags(session: "s2")
                + [Self.durationQuery("s2-d1", session: "s2", credited: 60), Self.durationQuery("s2-d2", session: "s2", credited: 60)]
            try await Self.store(oneMinute + claims + honest, in: store)
            let rows = try await store.reports.report(ReportQuery(appid: Self.appid))
            let row = try #require(rows.first)
            #expect(row.creditedSeconds == 60 + 120)
            #expect(row.tagCheck == DTVRTagCheck(tagSeconds: 180, sdkSeconds: 240, disagreeingSessions: 1))
            #expect(ReportTable.render(rows).contains("tags 180 s, SDK 240 s, 1 session differs"))
            let dtvr = try await store.reports.dtvrReport(ReportQuery(appid: Self.appid))
            #expect(dtvr.first?.tagCheck?.disagreeingSessions == 1 && dtvr.first?.creditedSeconds == 180)
            #expect(ReportTable.render(dtvr).contains("1 session"))
            let json = String(decoding: try JSONEncoder().encode(rows), as: UTF8.self)
            #expect(json.contains("\"tagCheck\"") && json.contains("\"disagreeingSessions\":1"))
        }
    }

    /// The session rule judges a session's tag credit as it judges pings' seconds: tags received
    /// as they were sent are not flagged; two minutes of tags received in one instant are, and
    /// a report leaving flagged sessions out does not credit them.
    @Test(arguments: Backend.available)
    func tagCreditIsHeldToTheSessionRule(_ backend: Backend) async throws {
        try await backend.withStore { store in
            for (index, query) in Self.twoMinutesOfTags(session: "live").enumerated() {
                try await Self.store([query], in: store, receivedAt: Self.start + Int64(index) * 10 + 1)
            }
            try await Self.store(Self.twoMinutesOfTags(session: "burst"), in: store, receivedAt: Self.start + 600)
            let rows = try await store.reports.plausibility(ReportQuery(appid: Self.appid))
            #expect(rows.map { "\($0.creditedSeconds) \($0.flaggedSessions) \($0.flaggedSeconds)" } == ["240 1 90"])
            let all = try await store.reports.report(ReportQuery(appid: Self.appid))
            let unflagged = try await store.reports.report(ReportQuery(appid: Self.appid, excludeFlagged: true))
            #expect(all.map(\.creditedSeconds) == [240] && unflagged.map(\.creditedSeconds) == [120])
        }
    }

    // MARK: Hostile tag streams

    /// Offsets jumping, absurd and missing times, duplicates, malformed offsets, bursts and
    /// 10,000 tags in one session: credited within the calls' span plus one tag gap, without a trap.
    @Test(arguments: Backend.available)
    func aHostileTagStreamIsCreditedWithinBoundsAndDoesNotTrap(_ backend: Backend) async throws {
        try await backend.withStore { store in
            var queries: [String] = []
            let base = Self.start * 1000
            for index in 0..<10_000 {
                let (offset, time): (String, String) = switch index % 10 {
                case 0: (String(format: "%05d", (index * 7_919) % 100_000), String(base + Int64(index)))          // offsets jumping
                case 1: ("99999", "99999999999999999999999")                                                      // a time no Int64 holds
                case 2: ("00000", "-5")
                case 3: (String(format: "%05d", index % 100_000), String(Int64.max))                             // far future
                case 4: ("abcde", String(base + Int64(index)))
                case 5: ("-0001", "")
                case 6: ("999999", String(base))
                case 7: (String(format: "%05d", 10_000 + index), String(base + Int64(index)))                     // a burst, 1 ms apart
                case 8: (String(format: "%05d", 10_000 + index), String(base + Int64(index)))                     // its duplicates
                default: (String(format: "%05d", 50_000 + index * 15 % 40_000), String(base + Int64(index) * 15_000))
                }
                queries.append(Self.tagQuery("h\(index)", session: "hostile", offset: offset, timeMs: time,
                                             created: index % 2 == 0 ? Self.start : 4_102_444_800, credited: index % 3 == 0 ? 86_400 : 0))
            }
            try await Self.store(queries, in: store, receivedAt: Self.start + 1_000)
            let sessions = try await store.reports.dtvrTaggedSessions(ReportQuery(appid: Self.appid))
            let session = try #require(sessions.first)
            #expect(sessions.count == 1 && session.sdkSeconds == 0)
            // Every call time is read between the earliest sent (`start`) and the receipt plus the
            // clock skew, so the credit is at most that span plus one tag step.
            #expect(session.tagSeconds > 0 && session.tagSeconds <= 1_000 + CreditBounds.clockSkew + 15)
            // All of it received at once: the session rule flags it.
            let plausibility = try await store.reports.plausibility(ReportQuery(appid: Self.appid))
            #expect(plausibility.map(\.flaggedSessions) == [1])
            let rows = try await store.reports.report(ReportQuery(appid: Self.appid))
            #expect(rows.first?.creditedSeconds == session.tagSeconds)
            // A tag ping's c27 is never credited: a third of them claimed a day.
            let overBound: Int64 = try #require(rows.first).overBoundSeconds
            let claimed: Int64 = 86_400 * 3_334
            #expect(overBound == claimed)
        }
    }

    @Test func tagPingsCreditNothingThemselvesAndAreDTVRs() throws {
        var ping = try PingValidator.validate(query: Substring(Self.tagQuery("t", offset: "46016", timeMs: "1", credited: 60)),
                                              uriLength: 900).get()
        CreditBounds.apply(to: &ping, interval: 60, receivedAt: Self.start)
        #expect(ping.creditedSeconds == 0 && ping.overBoundSeconds == 60 && ping.kind == .dtvr && ping.pingType == "id3")
        let dcr = Self.tagQuery("t", offset: "46016", timeMs: "1").replacingOccurrences(of: "prd=dtvr", with: "prd=dcr")
        guard case .failure(let rejection) = PingValidator.validate(query: Substring(dcr), uriLength: 900) else {
            Issue.record("a DCR tag ping was taken")
            return
        }
        #expect(rejection.reason.contains("id3"))
    }

    /// The walk itself at the edges of its values: sorted by call time, bounded by the span, and
    /// reading what no `Int64` holds as no time.
    @Test func theWalkFollowsTheSDKsRuleAndHoldsItsValues() {
        func tag(_ offset: Int?, _ ms: Int64, _ key: String = "") -> StoredTag { StoredTag(time: ms, offset: offset, key: key) }
        // Delivered out of order: walked in call order.
        #expect(TagCredit.seconds(of: [tag(20, 20_000), tag(0, 0), tag(10, 10_000)]) == 20)
        // A jump over 15 s, a step back, a repeat: nothing.
        #expect(TagCredit.seconds(of: [tag(0, 0), tag(16, 16_000), tag(10, 26_000), tag(10, 36_000)]) == 0)
        // A burst one offset-second apart: the rule's tolerance credits each, the span holds it.
        let burst = (0..<10_000).map { tag($0 % 100_000, Int64($0)) }
        #expect(TagCredit.seconds(of: burst) == 10 + 15)
        #expect(TagCredit.seconds(of: [tag(nil, 0), tag(nil, 10_000)]) == 0)
        let absurd = StoredTag.read(rawQuery: "id3tm=99999999999999999999999&fdcid=x&fdoff=0001", createdAt: .max, receivedAt: .max, key: "k")
        #expect(absurd.offset == nil && StoredTag.times.contains(absurd.time))
        let early = StoredTag.read(rawQuery: "id3tm=5000&pcoff=00042", createdAt: -1, receivedAt: .min, key: "k")
        #expect(early.offset == 42 && early.time == 0)
        #expect(DTVRAgreement.disagree(tagSeconds: .max, sdkSeconds: .min))
        #expect(!DTVRAgreement.disagree(tagSeconds: 120, sdkSeconds: 135) && DTVRAgreement.disagree(tagSeconds: 120, sdkSeconds: 136))
    }
}
