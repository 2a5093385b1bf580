@testable import CensusHTTP
@testable import CensusPostgres
@testable import CensusSQLite
@testable import CensusStore
@testable import MeterTables
import Foundation
import MeterWire
import Testing

/// The session rule over viewability pings (``ViewabilityPlausibility``, census-decisions.md S41):
/// the same rule as duration pings', per kind.
@Suite struct ViewabilityPlausibilityTests {
    static let appid = "P00000000-0000-4000-8000-000000000001"
    static let start: Int64 = 1_700_000_000

    /// One kind's seconds per ping, the spans of creation and receipt times, and the excess.
    @Test(arguments: [
        // Honest: a ping per minute for five minutes, each 59 s viewable.
        ([59, 59, 59, 59, 59], 240, 240, -34),
        // 200 pings at once, each at its bound of 76 s: as 200 duration pings would be.
        (Array(repeating: 76, count: 200), 0, 0, 15_094),
        // The shorter span counts: a queue delivered at once, or a clock run fast.
        ([60, 60, 60], 120, 1, 89), ([60, 60, 60], 1, 120, 89),
        // Within the largest ping and the tolerance.
        ([76, 30], 0, 0, 0), ([76, 31], 0, 0, 1), ([], 0, 0, -30),
        // Saturating: no sender overflows the sum.
        ([Int64.max, Int64.max], 0, 0, -30),
    ] as [([Int64], Int64, Int64, Int64)])
    func theRuleIsTheDurationPingsRule(_ seconds: [Int64], _ createdSpan: Int64, _ receivedSpan: Int64, _ excess: Int64) {
        #expect(ViewabilityPlausibility.excess(seconds: seconds, createdSpan: createdSpan, receivedSpan: receivedSpan) == excess)
    }

    static func ping(_ index: Int, session: String, created: Int64, seconds: Int, volume: Int = 30) -> IncomingViewability {
        let query = "prd=dcr&c13=asid,\(appid)&ai=vid1&c3=st,c&c59=sesid,\(session)&c61=createtm,\(created)&pingid=\(session)-\(index)"
        let body = #"{"inau":[[\#(volume),0,\#(created),\#(seconds)]],"invs":[[100,0,\#(created),\#(seconds)]]}"#
        guard case .success(var ping) = IncomingViewability.parse(query: Substring(query), body: body) else {
            fatalError("the test's viewability ping is malformed")
        }
        ping.bound(interval: 60)
        return ping
    }

    /// The issue's case: 200 viewability pings of one session within 0.2 s, each claiming a day,
    /// are flagged as the same 200 duration pings are (15,094 s of each kind), and
    /// `--exclude-flagged` leaves them out; an honest session beside them is not flagged.
    @Test(arguments: Backend.available)
    func inflatedViewabilityIsFlaggedAndHonestIsNot(_ backend: Backend) async throws {
        try await backend.withStore { store in
            for index in 0..<200 {
                _ = try await store.viewability.insert(Self.ping(index, session: "burst", created: Self.start, seconds: 86_400),
                                           receivedAt: Self.start * 1000 + Int64(index))
            }
            for index in 0..<5 {
                let created = Self.start + Int64(index) * 60
                _ = try await store.viewability.insert(Self.ping(index, session: "honest", created: created, seconds: 59),
                                           receivedAt: created * 1000 + 150)
            }
            let rows = try await store.viewability.viewabilityReport(ReportQuery(appid: Self.appid))
            #expect(rows.map { "\($0.session) \($0.viewableSeconds) \($0.audibleSeconds) \($0.flagged)" }
                    == ["burst 15200 15200 true", "honest 295 295 false"])
            let plausibility = try await store.reports.plausibility(ReportQuery(appid: Self.appid))
            #expect(plausibility.map { "\($0.flaggedViewableSeconds) \($0.flaggedAudibleSeconds) \($0.flaggedViewabilitySessions)" }
                    == ["15094 15094 1"])
            #expect(plausibility.first?.holdsAnything == true)
            let excluded = try await store.viewability.viewabilityReport(ReportQuery(appid: Self.appid, excludeFlagged: true))
            #expect(excluded.map(\.session) == ["honest"])
        }
    }

    /// Muted pings are flagged by what they claimed viewable alone; pings without a session id
    /// belong to no session and are never flagged.
    @Test(arguments: Backend.available)
    func eachKindIsJudgedOnItsOwn(_ backend: Backend) async throws {
        try await backend.withStore { store in
            for index in 0..<10 {
                _ = try await store.viewability.insert(Self.ping(index, session: "muted", created: Self.start, seconds: 60, volume: 0),
                                           receivedAt: Self.start * 1000)
                _ = try await store.viewability.insert(Self.ping(index, session: "", created: Self.start, seconds: 60),
                                           receivedAt: Self.start * 1000)
            }
            let plausibility = try await store.reports.plausibility(ReportQuery())
            #expect(plausibility.map { "\($0.flaggedViewableSeconds) \($0.flaggedAudibleSeconds) \($0.flaggedViewabilitySessions)" }
                    == ["510 0 1"])
        }
    }
}
