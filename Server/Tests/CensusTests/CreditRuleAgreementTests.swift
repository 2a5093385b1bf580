@testable import CensusHTTP
@testable import CensusPostgres
@testable import CensusSQLite
@testable import CensusStore
@testable import MeterTables
import Foundation
import MeterWire
import Testing

/// The credit report (SQL over every ping) and ``SessionCredit`` (Swift over one session's pings)
/// apply one rule, ``CreditRule`` (census-decisions.md S38): on pings drawn at random from a seed
/// (DCR content, ads and static pages, DTVR with and without tags, on two channels, some delivered
/// twice), every line of the report is what the sessions' credits add up to. If either side
/// changes how it credits, this fails.
@Suite struct CreditRuleAgreementTests {
    static let apps = [DTVRTagCreditTests.appid, "P00000000-0000-4000-8000-0000000000e8"]
    static let cids = [DTVRTagCreditTests.cid, "pI-X5FFk07770SXf2ZbI6g=="]
    static let start = DTVRTagCreditTests.start

    @Test(arguments: Backend.available, [1, 2, 3] as [UInt64])
    func theReportIsTheSumOfItsSessionsCredit(_ backend: Backend, seed: UInt64) async throws {
        var random = SeededRandom(seed: seed)
        var queries: [String] = []
        var sessions: [String] = []
        for app in Self.apps {
            for index in 0..<6 {
                let session = "s\(seed)-\(index)-\(app.suffix(2))"
                sessions.append(session)
                queries += Self.session(session, app: app, using: &random)
            }
        }
        // A share of the pings delivered again, later: stored once, credited once.
        let again = queries.filter { _ in Int.random(in: 0..<4, using: &random) == 0 }
        try await backend.withStore { store in
            try await DTVRTagCreditTests.store(queries, in: store)
            try await DTVRTagCreditTests.store(again, in: store, receivedAt: Self.start + 900)

            var stored: [StoredPing] = []
            var bySession: [String: Int64] = [:]
            for session in sessions {
                let pings = try await store.sessions.pings(session: session)
                stored += pings
                for row in SessionCredit.assets(of: pings) { bySession[Self.key(row), default: 0] += row.creditedSeconds }
            }
            let report = try await store.reports.report(ReportQuery())
            let reported = Dictionary(uniqueKeysWithValues: report.map { ("\($0.appid) \($0.kind.rawValue) \($0.assetid)", $0.creditedSeconds) })
            let credit = SessionCredit.assets(of: stored)
            #expect(stored.count == Set(queries).count)
            #expect(Dictionary(uniqueKeysWithValues: credit.map { (Self.key($0), $0.creditedSeconds) }) == reported)
            #expect(bySession == reported)
            // Pings read twice still count once.
            #expect(SessionCredit.assets(of: stored + stored.reversed()) == credit)
            // DTVR: the same tag seconds on both sides, and tags did the crediting somewhere.
            for row in report where row.kind == .dtvr {
                #expect(credit.first { Self.key($0) == "\(row.appid) dtvr \(row.assetid)" }?.tagSeconds == row.tagCheck?.tagSeconds)
            }
            #expect(report.contains { ($0.tagCheck?.tagSeconds ?? 0) > 0 })
            // Each line's audience (census-decisions.md S54): its minutes' seconds are the line's,
            // tags and all, and its reach the line's devices.
            for row in report {
                let audience = try await store.reports.audience(AudienceQuery(
                    appid: row.appid, asset: row.assetid, from: Self.start - 3_600, to: Self.start + 86_400))
                let line = try await store.reports.report(ReportQuery(appid: row.appid, from: Self.start - 3_600, to: Self.start + 86_400))
                    .filter { $0.assetid == row.assetid }
                #expect(audience.creditedSeconds == line.reduce(0) { $0 + $1.creditedSeconds }, "\(row.kind) \(row.assetid)")
                #expect(audience.minutes.reduce(0) { $0 + $1.seconds } == audience.creditedSeconds)
                if line.count == 1 { #expect(audience.reach == line[0].devices, "\(row.assetid)") }
            }
        }
    }

    static func key(_ row: AssetCredit) -> String { "\(row.appid) \(row.kind.rawValue) \(row.assetid)" }

    /// One viewing session's queries: DCR pings of a few assets, or DTVR of one CID on one
    /// channel with (mostly) tags, or both.
    static func session(_ session: String, app: String, using random: inout SeededRandom) -> [String] {
        var queries: [String] = []
        var created = start + Int64.random(in: 0..<60, using: &random)
        for ping in 0..<Int.random(in: 1...12, using: &random) {
            created += Int64.random(in: 5...70, using: &random)
            let seconds = Int.random(in: 0...90, using: &random)   // beyond the bound at times
            let asset = ["ep1", "ep2", "spot"].randomElement(using: &random)!
            let (rt, c3) = [("video", "c"), ("video", "a"), ("text", "c")].randomElement(using: &random)!
            queries.append("prd=dcr&asn=One&c13=asid,\(app)&at=\(ping == 0 ? "view" : "timer")&rt=\(rt)&c27=cln,\(seconds)&st=dcr"
                + "&ai=\(asset)&c3=st,\(c3)&c58=isLive,false&c59=sesid,\(session)&c61=createtm,\(created)&sd=600"
                + "&pingid=\(session)-d\(ping)")
        }
        guard Bool.random(using: &random) else { return queries }
        let cid = cids.randomElement(using: &random)!
        let channel = ["One", "Two"].randomElement(using: &random)!
        let escaped = cid.replacingOccurrences(of: "=", with: "%3D").replacingOccurrences(of: "+", with: "%2B")
        for claim in 0..<Int.random(in: 1...4, using: &random) {
            queries.append("prd=dtvr&asn=\(channel)&c13=asid,\(app)&at=\(claim == 0 ? "view" : "timer")&rt=video"
                + "&c27=cln,\(Int.random(in: 0...70, using: &random))&st=dtvr&ai=\(escaped)&c3=st,c&c58=isLive,true"
                + "&c59=sesid,\(session)&c61=createtm,\(start + Int64(claim) * 60)&fdcid=\(escaped)&fdoff=46136&pingid=\(session)-c\(claim)")
        }
        // Some sessions send no tags: their claim is their credit.
        guard Int.random(in: 0..<4, using: &random) > 0 else { return queries }
        var offset = 46_000
        var time = start * 1000 + Int64.random(in: 0..<1000, using: &random)
        for tag in 0..<Int.random(in: 2...20, using: &random) {
            // Mostly a steady stream; now and then a seek, a repeat or a late tag.
            offset += [10, 10, 10, 0, 40, -30].randomElement(using: &random)!
            time += [10_000, 10_000, 9_500, 25_000].randomElement(using: &random)!
            queries.append(DTVRTagCreditTests.tagQuery(
                "\(session)-t\(tag)", session: session, offset: String(format: "%05d", max(0, offset)), timeMs: String(time),
                created: time / 1000, cid: cid, channel: channel).replacingOccurrences(of: DTVRTagCreditTests.appid, with: app))
        }
        return queries
    }
}

/// SplitMix64: the same pings for a seed on every run and platform.
struct SeededRandom: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
