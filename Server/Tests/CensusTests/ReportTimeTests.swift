@testable import CensusHTTP
@testable import CensusStore
import Foundation
import Hummingbird
import HummingbirdTesting
import NIOFoundationEssentialsCompat
import Testing

/// Report ranges as people write them, and breakdowns by the days and hours of a zone
/// (``ReportTime``, ``ReportRange``, census-decisions.md S52).
@Suite struct ReportTimeTests {
    static let utc = TimeZone(identifier: "UTC")!
    static let rome = TimeZone(identifier: "Europe/Rome")!

    @Test(arguments: [
        ("1764180000", false, 1_764_180_000 as Int64?),
        ("-5", false, -5),
        ("2026-11-26", false, 1_795_651_200),
        ("2026-11-26", true, 1_795_737_600),
        ("2026-11-26T20:00", false, 1_795_723_200),
        ("2026-11-26T20:00:30Z", false, 1_795_723_230),
        ("2026-11-26T20:00:00+01:00", false, 1_795_719_600),
        ("2026-11-26 20:00:00-0530", false, 1_795_743_000),
        ("2028-02-29", false, 1_835_395_200),
        ("2026-02-29", false, nil),
        ("2026-11-31", false, nil),
        ("2026-11-26T24:00", false, nil),
        ("2026-11-26T20:60", false, nil),
        ("2026-11-26T20:00+19:00", false, nil),
        ("0001-01-01", false, nil),
        ("2026-1-26", false, nil),
        ("yesterday", false, nil),
        ("", false, nil),
        ("99999999999999999999", false, nil),
    ])
    func anInstantIsReadInUTC(_ text: String, _ asEnd: Bool, _ seconds: Int64?) {
        #expect(ReportTime.instant(text, in: Self.utc, asEnd: asEnd) == seconds, "\(text)")
    }

    /// Whatever a reader sends as a time or a zone is read or refused, never trapped on: 20,000
    /// strings mutated from valid ones (a fixed seed), and the extremes of every field.
    @Test func noTextTrapsTheReading() {
        var generator = SeededRandom(seed: 52)
        let seeds = ["2026-11-26T20:00:30+01:00", "9999-12-31T23:59:59-18:00", "1970-01-01T00:00Z", "2026-11-26", "+01:00", "Europe/Rome"]
        let alphabet = Array("0123456789-+:TZ /.eE\u{0}é")
        for round in 0..<20_000 {
            var text = Array(seeds[round % seeds.count])
            for _ in 0..<Int(generator.next() % 4) + 1 {
                let index = Int(generator.next() % UInt64(text.count + 1))
                switch generator.next() % 3 {
                case 0: text.insert(alphabet[Int(generator.next() % UInt64(alphabet.count))], at: index)
                case 1: if index < text.count { text.remove(at: index) }
                default: if index < text.count { text[index] = alphabet[Int(generator.next() % UInt64(alphabet.count))] }
                }
            }
            let string = String(text)
            let zone = ReportTime.zone(string) ?? Self.rome
            if let instant = ReportTime.instant(string, in: zone, asEnd: round % 2 == 0) {
                _ = ReportTime.periods(.hour, from: instant, to: instant &+ 7_200, in: zone)
            }
        }
        for bound in [Int64.min, -1, 0, ReportTime.lastInstant, ReportTime.lastInstant + 1, .max] {
            _ = ReportTime.periods(.day, from: bound, to: bound &+ 86_400, in: Self.rome)
        }
    }

    @Test func aDateIsReadInTheZoneGiven() {
        let midnightInRome: Int64 = 1_795_647_600
        #expect(ReportTime.instant("2026-11-26", in: Self.rome) == midnightInRome)
        #expect(ReportTime.instant("2026-07-01T12:00", in: Self.rome) == 1_782_900_000)  // summer time, +02:00
        #expect(ReportTime.instant("2026-07-01T12:00Z", in: Self.rome) == 1_782_907_200)  // an offset wins over the zone
    }

    @Test(arguments: [("UTC", 0 as Int?), ("Europe/Rome", 3_600), ("+01:00", 3_600), ("-0530", -19_800), ("+05", 18_000),
                      ("Mars/Olympus", nil), ("+19:00", nil), ("../../etc/passwd", nil), ("", nil)])
    func aZoneIsANameOrAnOffset(_ text: String, _ offsetInJanuary: Int?) {
        let january = Date(timeIntervalSince1970: 1_767_225_600)
        #expect(ReportTime.zone(text)?.secondsFromGMT(for: january) == offsetInJanuary, "\(text)")
    }

    @Test func aDayByHourHas24PeriodsAndAClockChangeDay23Or25() throws {
        let day = try #require(ReportTime.periods(.hour, from: 1_795_651_200, to: 1_795_737_600, in: Self.utc))
        #expect(day.count == 24)
        #expect(day.first == ReportTime.Period(start: 1_795_651_200, end: 1_795_654_800, label: "2026-11-26T00:00+00:00"))
        let spring = try #require(ReportTime.instant("2026-03-29", in: Self.rome)), springEnd = try #require(ReportTime.instant("2026-03-29", in: Self.rome, asEnd: true))
        #expect(try #require(ReportTime.periods(.hour, from: spring, to: springEnd, in: Self.rome)).count == 23)
        let autumn = try #require(ReportTime.instant("2026-10-25", in: Self.rome)), autumnEnd = try #require(ReportTime.instant("2026-10-25", in: Self.rome, asEnd: true))
        let hours = try #require(ReportTime.periods(.hour, from: autumn, to: autumnEnd, in: Self.rome))
        #expect(hours.count == 25)
        #expect(hours.map(\.label).filter { $0.hasPrefix("2026-10-25T02:00") } == ["2026-10-25T02:00+02:00", "2026-10-25T02:00+01:00"])
        #expect(try #require(ReportTime.periods(.day, from: autumn, to: autumnEnd, in: Self.rome)).map(\.label) == ["2026-10-25"])
    }

    @Test func periodsAreCutToTheRangeAndBounded() throws {
        let cut = try #require(ReportTime.periods(.day, from: 1_795_723_200, to: 1_795_780_800, in: Self.utc))
        #expect(cut == [ReportTime.Period(start: 1_795_723_200, end: 1_795_737_600, label: "2026-11-26"),
                        ReportTime.Period(start: 1_795_737_600, end: 1_795_780_800, label: "2026-11-27")])
        #expect(ReportTime.periods(.hour, from: 0, to: 3_600 * 1_001, in: Self.utc) == nil)
        #expect(ReportTime.periods(.hour, from: 0, to: 3_600 * 1_000, in: Self.utc)?.count == 1_000)
        #expect(ReportTime.periods(.day, from: -1, to: 10, in: Self.utc) == nil)
        #expect(ReportTime.periods(.day, from: 0, to: .max, in: Self.utc) == nil)
        #expect(ReportTime.periods(.day, from: 10, to: 10, in: Self.utc) == [])
    }

    @Test(arguments: [
        ("2026-11-26" as String?, nil as String?, "xyz" as String?, nil as String?, "tz must be UTC"),
        ("tomorrow", nil, nil, nil, "from must be Unix seconds, a date"),
        (nil, "", nil, nil, "to must be Unix seconds, a date"),
        ("2026-11-26", nil, nil, "day", "by=day needs from and to"),
        ("2026-11-26", "2026-11-27", nil, "week", "by must be day or hour"),
        ("2020-01-01", "2026-01-01", nil, "hour", "at most 1000 periods"),
    ])
    func aRangeThatCannotBeReadSaysWhy(_ from: String?, _ to: String?, _ tz: String?, _ by: String?, _ reason: String) {
        guard case .failure(let problem) = ReportRange.read(from: from, to: to, tz: tz, by: by) else {
            Issue.record("read")
            return
        }
        #expect(problem.reason.contains(reason), "\(problem.reason)")
    }

    /// A ping counts, whole, in the period of its creation: the hours of a range sum to the
    /// range's report exactly, a session cut by a range's edge credited on each side by its pings.
    @Test(arguments: Backend.available)
    func theHoursOfARangeSumToItsReport(_ backend: Backend) async throws {
        try await backend.withStore { store in
            let app = Application(router: CensusServer(store: store).router())
            // Two hours ago at the top of the hour, in UTC: pings 20 minutes apart over 2 hours,
            // one session straddling the hour.
            let now = Int64(Date.now.timeIntervalSince1970)
            let start = now - now % 3_600 - 7_200
            try await app.test(.router) { client in
                for index in 0..<6 {
                    let ping = PingQueries.valid(pingID: "h\(index)", credited: 10 * (index + 1), session: "s-straddle",
                                                 created: Int(start) + index * 1_200)
                    try await client.execute(uri: "/cgi-bin/gn?" + ping, method: .get) { #expect($0.status == .ok) }
                }
                struct Whole: Decodable { let rows: [CreditRow] }
                struct Period: Decodable { let start: Int64; let label: String; let rows: [CreditRow] }
                struct Broken: Decodable { let by: String; let timeZone: String; let periods: [Period] }
                let range = "from=\(start)&to=\(start + 7_200)"
                let whole = try await client.execute(uri: "/api/v1/report?" + range, method: .get) {
                    try JSONDecoder().decode(Whole.self, from: Data(buffer: $0.body))
                }
                let broken = try await client.execute(uri: "/api/v1/report?\(range)&by=hour&tz=%2B01:00", method: .get) {
                    try JSONDecoder().decode(Broken.self, from: Data(buffer: $0.body))
                }
                #expect(broken.by == "hour")
                #expect(broken.periods.count == 2)
                let perHour: [Int64] = broken.periods.map { period in period.rows.reduce(0) { $0 + $1.creditedSeconds } }
                #expect(perHour == [60, 150])
                let wholeSeconds: Int64 = whole.rows.reduce(0) { $0 + $1.creditedSeconds }
                #expect(perHour.reduce(0, +) == wholeSeconds)
                #expect(broken.periods.first?.label.hasSuffix(":00+01:00") == true)
                try await client.execute(uri: "/api/v1/report?\(range)&by=hour&format=csv", method: .get) { response in
                    let lines = String(buffer: response.body).split(separator: "\r\n")
                    #expect(lines.first?.hasPrefix("period,appid,assetid,") == true)
                    #expect(lines.count == 3, "\(lines)")
                }
                try await client.execute(uri: "/api/v1/report?by=hour", method: .get) { response in
                    #expect(response.status == .badRequest)
                    #expect(String(buffer: response.body).hasPrefix("by=hour needs from and to"))
                }
                try await client.execute(uri: "/api/v1/report/viewability?\(range)&by=day", method: .get) { #expect($0.status == .ok) }
            }
        }
    }
}
