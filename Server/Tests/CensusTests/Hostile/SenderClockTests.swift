@testable import CensusHTTP
@testable import CensusPostgres
@testable import CensusSQLite
@testable import CensusStore
@testable import MeterTables
import Foundation
import Hummingbird
import HummingbirdTesting
import SQLKit
import Testing

/// ``SenderClock``, row by row, and what it keeps a sender's times from doing: widening a
/// session's span, dating a ping outside the window around its receipt (census-decisions.md S42).
@Suite struct SenderClockTests {
    static let receipt: Int64 = 1_800_000_000
    static let day: Int64 = 86_400

    /// A time as sent and the time read for it, received at ``receipt``.
    @Test(arguments: [
        // Honest clocks: now, a few minutes either way, a queue delivered a month late.
        (receipt, receipt), (receipt - 90, receipt - 90), (receipt + 300, receipt + 300),
        (receipt - 31 * day, receipt - 31 * day), (receipt - 30 * day, receipt - 30 * day),
        // Past the window: held to its edges.
        (receipt + 301, receipt + 300), (4_102_444_800, receipt + 300), (.max, receipt + 300),
        (receipt - 31 * day - 1, receipt - 31 * day), (1, receipt - 31 * day), (-5, receipt - 31 * day), (.min, receipt - 31 * day),
        // No time given (a ping without c61): its receipt.
        (0, receipt),
    ] as [(Int64, Int64)])
    func aTimeIsHeldToTheWindowAroundItsReceipt(_ sent: Int64, _ read: Int64) {
        #expect(SenderClock.held(sent, receivedAt: Self.receipt) == read)
        let milliseconds = sent.multipliedReportingOverflow(by: 1000)
        if !milliseconds.overflow {
            #expect(SenderClock.held(milliseconds: milliseconds.partialValue, receivedAt: Self.receipt * 1000) == read * 1000)
        }
        if sent.magnitude < 1 << 52 {
            #expect(SenderClock.held(seconds: Double(sent), receivedAtMilliseconds: Self.receipt * 1000) == Double(read))
        }
    }

    /// A trace entry's time that is no number is read as its receipt; fractions within the window stay.
    @Test func aTraceTimeKeepsItsFractionAndANonNumberIsItsReceipt() {
        let receipt = Self.receipt * 1000
        #expect(SenderClock.held(seconds: Double(Self.receipt) - 0.25, receivedAtMilliseconds: receipt) == Double(Self.receipt) - 0.25)
        #expect(SenderClock.held(seconds: .infinity, receivedAtMilliseconds: receipt) == Double(Self.receipt))
        #expect(SenderClock.held(seconds: .nan, receivedAtMilliseconds: receipt) == Double(Self.receipt))
    }

    /// The window's edges are the rules the census already had: the SDK queue's 31 days and the
    /// credit bounds' clock skew.
    @Test func theWindowIsTheQueuesAgeAndTheClocksSkew() {
        #expect(SenderClock.behind == 31 * Self.day)
        #expect(SenderClock.ahead == CreditBounds.clockSkew)
    }

    /// Pings dated 1970 and 2100 cannot widen their session's span beyond the window around their
    /// receipt; their `c61` as sent stays in the stored query, and honest pings keep theirs.
    @Test(arguments: Backend.available)
    func aSenderCannotWidenASpanBeyondTheWindow(_ backend: Backend) async throws {
        let app = "P00000000-0000-4000-8000-0000000000C1"
        try await backend.withStore { store in
            let server = CensusServer(store: store)
            let before = Int64(Date.now.timeIntervalSince1970)
            try await Application(router: server.router()).test(.router) { client in
                for (id, created) in [("old", 1), ("new", 4_102_444_800), ("queued", Int(before) - 30 * 86_400),
                                      ("ahead", Int(before) + 200)] {
                    let query = PingQueries.valid(pingID: id, appid: app, session: "wide", created: created)
                    try await client.execute(uri: "/cgi-bin/gn?" + query, method: .get) { #expect($0.status == .ok) }
                }
            }
            let after = Int64(Date.now.timeIntervalSince1970)
            let span = try await store.database.withSQL { db in
                try await db.select().columns("starts_at", "ends_at").from("census_sessions").where("session_id", .equal, "wide").all()
                    .map { (try $0.decode(column: "starts_at", as: Int64.self), try $0.decode(column: "ends_at", as: Int64.self)) }
            }
            #expect(span.count == 1)
            #expect((span.first?.0 ?? 0) >= before - SenderClock.behind)
            #expect((span.first?.1 ?? .max) <= after + SenderClock.ahead + SessionSpans.slack)
            let pings = Dictionary(uniqueKeysWithValues: try await store.sessions.pings(session: "wide").map { ($0.pingID, $0) })
            #expect(pings.count == 4)
            #expect(((before - SenderClock.behind)...(after - SenderClock.behind)).contains(pings["old"]?.createdAt ?? 0))
            #expect(((before + SenderClock.ahead)...(after + SenderClock.ahead)).contains(pings["new"]?.createdAt ?? 0))
            #expect(pings["old"]?.rawQuery.contains("c61=createtm,1&") == true)
            #expect(pings["new"]?.rawQuery.contains("c61=createtm,4102444800&") == true)
            #expect(pings["queued"]?.createdAt == before - 30 * 86_400)
            #expect(pings["ahead"]?.createdAt == before + 200)
        }
    }
}
