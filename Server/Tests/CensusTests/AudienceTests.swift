@testable import CensusHTTP
@testable import CensusStore
import Foundation
import Hummingbird
import HummingbirdTesting
import NIOFoundationEssentialsCompat
import Testing

/// The audience and its minute curve (census-decisions.md S54): the minute rule as a table, and a
/// seeded random census whose curve, reach and average minute audience are worked out here second
/// by second and match the census's, on both engines, its seconds those of the credit report.
@Suite struct AudienceTests {
    /// A ping's seconds and creation, and the (minute, seconds) pairs it credits.
    struct Spread: Sendable, CustomTestStringConvertible {
        let seconds: Int64, created: Int64, minutes: [Int64], parts: [Int64]
        var testDescription: String { "\(seconds) s created at \(created)" }
    }

    static let spreads = [
        Spread(seconds: 10, created: 65, minutes: [0, 60], parts: [5, 5]),
        Spread(seconds: 0, created: 100, minutes: [], parts: []),
        Spread(seconds: -5, created: 100, minutes: [], parts: []),
        Spread(seconds: 60, created: 120, minutes: [60], parts: [60]),
        Spread(seconds: 150, created: 200, minutes: [0, 60, 120, 180], parts: [10, 60, 60, 20]),
        Spread(seconds: 30, created: -10, minutes: [-60], parts: [30]),
        Spread(seconds: 1, created: 60, minutes: [0], parts: [1]),
    ]

    @Test(arguments: spreads)
    func aPingsSecondsAreTheMinutesBeforeItsCreation(_ spread: Spread) {
        var found: [(Int64, Int64)] = []
        AudienceRule.spread(seconds: spread.seconds, endingAt: spread.created) { found.append(($0, $1)) }
        #expect(found.map(\.0) == spread.minutes)
        #expect(found.map(\.1) == spread.parts)
    }

    @Test func extremeStoredValuesDoNotTrap() {
        var total: Int64 = 0
        AudienceRule.spread(seconds: .max, endingAt: .max) { total += $1 }
        AudienceRule.spread(seconds: .max, endingAt: .min) { total += $1 }
        #expect(total == 2 * (1 << 20))
        #expect(AudienceRule.floorMinute(-1) == -60)
        #expect(AudienceRule.floorMinute(-60) == -60)
        #expect(AudienceRule.floorMinute(59) == 0)
    }

    /// A device counts in a minute from 30 of its seconds, its pings' seconds added; a ping
    /// without a device adds seconds, never a device.
    @Test func aDeviceCountsInAMinuteFromThirtySeconds() {
        var tally = AudienceTally()
        tally.add(device: "", createdAt: 60, seconds: 60)
        tally.add(device: "a", createdAt: 30, seconds: 29)
        tally.add(device: "b", createdAt: 20, seconds: 20)
        tally.add(device: "b", createdAt: 50, seconds: 10)
        tally.add(device: "c", createdAt: 120, seconds: 90)
        tally.finish()
        let first = tally.minutes[0] ?? (-1, -1), second = tally.minutes[60] ?? (-1, -1)
        #expect(first.devices == 2)
        #expect(first.seconds == Int64(60 + 29 + 30 + 30))
        #expect(second.devices == 1)
        #expect(second.seconds == 60)
        #expect(tally.reach == 3)
        #expect(tally.seconds == 209)
        #expect(tally.unidentifiedSeconds == 60)
    }

    /// Random viewing of two assets by devices (some without an id), pings created at random
    /// intervals with random seconds: the curve, reach and average minute audience of one asset
    /// match the ones worked out here second by second, and its seconds the report's; within a
    /// day, and over a midnight (UTC), where the database hands a device's pings over a day at a
    /// time (census-decisions.md S55).
    @Test(arguments: Backend.available, [Int64(0), -2_700])
    func aRandomAudienceMatchesOneWorkedOutSecondBySecond(_ backend: Backend, shift: Int64) async throws {
        var random = SeededRandom(seed: 51)
        let base: Int64 = 1_795_996_800 + shift
        var pings: [IncomingPing] = []
        for device in 0..<40 {
            var at = base + Int64.random(in: 0..<3_600, using: &random)
            for ping in 0..<Int.random(in: 1...25, using: &random) {
                let seconds = Int64.random(in: 0...120, using: &random)
                at += seconds + Int64.random(in: 0...90, using: &random)
                var made = SessionSpanTests.ping("d\(device)-\(ping)", "s\(device)", at: at)
                made.deviceID = device % 7 == 0 ? "" : "device-\(device)"
                made.assetID = device % 3 == 0 ? "other" : "news"
                made.creditedSeconds = seconds
                pings.append(made)
            }
        }
        let from = base + 600, to = base + 5_400
        let query = AudienceQuery(appid: "PAPP", asset: "news", from: from, to: to)
        let counted = pings.filter { $0.assetID == "news" && $0.createdAt >= from && $0.createdAt < to }
        // Second by second: which devices were credited each second, then each minute's.
        var perSecond: [Int64: [String: Int64]] = [:]
        var seconds: Int64 = 0
        for ping in counted where ping.creditedSeconds > 0 {
            for second in (ping.createdAt - ping.creditedSeconds)..<ping.createdAt {
                perSecond[second - ((second % 60) + 60) % 60, default: [:]][ping.deviceID, default: 0] += 1
                seconds += 1
            }
        }
        let expected = perSecond.keys.sorted().map { minute in
            Audience.Minute(start: minute, devices: Int64(perSecond[minute]!.filter { !$0.key.isEmpty && $0.value >= 30 }.count),
                            seconds: perSecond[minute]!.values.reduce(0, +))
        }
        let reach = Set(counted.map(\.deviceID).filter { !$0.isEmpty }).count

        try await backend.withStore { store in
            for start in stride(from: 0, to: pings.count, by: 100) {
                _ = try await store.insert(Array(pings[start..<min(start + 100, pings.count)]), receivedAt: base * 1000)
            }
            let audience = try await store.reports.audience(query)
            #expect(audience.minutes == expected)
            #expect(audience.creditedSeconds == seconds)
            #expect(audience.reach == Int64(reach))
            #expect(audience.averageMinuteAudience == Double(seconds) / Double(to - from))
            let line = try await store.reports.report(query.report).first { $0.assetid == "news" }
            #expect(line?.creditedSeconds == audience.creditedSeconds)
            #expect(line?.devices == audience.reach)
        }
        #expect(expected.count > 60 && expected.contains { $0.devices > 3 }, "the random viewing overlaps")
    }

    /// The route answers the measures and the curve, and refuses what it cannot answer with the reason.
    @Test func theRouteAnswersAndRefusesWithTheReason() async throws {
        try await Backend.sqlite.withStore { store in
            let server = CensusServer(store: store)
            try await Application(router: server.router()).test(.router) { client in
                let base = Int(Date.now.timeIntervalSince1970) - 86_400
                for (id, created) in [("a", base + 60), ("b", base + 120)] {
                    let ping = PingQueries.valid(pingID: id, credited: 60, session: "s1", device: "d1", created: created)
                    try await client.execute(uri: "/cgi-bin/gn?" + ping, method: .get) { #expect($0.status == .ok) }
                }
                let app = "P00000000-0000-4000-8000-000000000001"
                try await client.execute(uri: "/api/v1/audience?appid=\(app)&from=\(base)&to=\(base + 600)", method: .get) { response in
                    #expect(response.status == .ok)
                    struct Body: Decodable { let reach: Int64; let creditedSeconds: Int64; let minutes: [Audience.Minute] }
                    let body = try JSONDecoder().decode(Body.self, from: Data(buffer: response.body))
                    #expect(body.reach == 1)
                    #expect(body.creditedSeconds == 120)
                    #expect(body.minutes.map(\.devices) == body.minutes.map { $0.seconds >= 30 ? 1 : 0 })
                    #expect(body.minutes.map(\.seconds).reduce(0, +) == 120)
                }
                for (query, reason) in [
                    ("from=\(base)&to=\(base + 600)", "appid is required"),
                    ("appid=\(app)&from=\(base)", "from and to are required"),
                    ("appid=\(app)&from=\(base + 600)&to=\(base)", "from before to"),
                    ("appid=\(app)&from=\(base)&to=\(base + 32 * 86_400)", "at most 31 days"),
                    ("appid=\(app)&from=\(base)&to=\(base + 600)&asset=", "asset is empty"),
                    ("appid=\(app)&from=yesterday&to=\(base)", "from must be"),
                ] {
                    try await client.execute(uri: "/api/v1/audience?" + query, method: .get) { response in
                        #expect(response.status == .badRequest, "\(query)")
                        #expect(String(buffer: response.body).contains(reason), "\(query): \(String(buffer: response.body))")
                    }
                }
            }
        }
    }
}
