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

/// The census tells the time by its store's ``CensusClock``: receipts, the window a sender's
/// time is held to (census-decisions.md S42), retention and exports are decided on the clock a
/// test moves, not on the machine's.
@Suite struct CensusClockTests {
    static let start: Int64 = 1_800_000_000
    static let day: Int64 = 86_400
    static let app = "P00000000-0000-4000-8000-0000000000D1"

    /// A census over a fresh SQLite store on `clock`, its routes driven in-process.
    func withCensus(clock: ManualCensusClock, policy: CensusPolicy = .standard,
                    _ body: @escaping @Sendable (any TestClientProtocol, CensusServer) async throws -> Void) async throws {
        try await Backend.sqlite.withStore(clock: clock) { store in
            let server = CensusServer(store: store, policy: policy)
            try await Application(router: server.router()).test(.router) { client in try await body(client, server) }
        }
    }

    func send(_ client: any TestClientProtocol, _ id: String, created: Int64) async throws {
        let query = PingQueries.valid(pingID: id, appid: Self.app, session: "clock", created: Int(created))
        try await client.execute(uri: "/cgi-bin/gn?" + query, method: .get) { #expect($0.status == .ok) }
    }

    /// A ping is received at the clock's time, and its `c61` held to the window around that
    /// time: the same `c61` is clamped before the clock moves and read as sent after.
    @Test func theReceiptWindowIsTheClocks() async throws {
        let clock = ManualCensusClock(seconds: Self.start)
        try await withCensus(clock: clock) { client, server in
            let ahead = Self.start + 3_600
            try await send(client, "early", created: ahead)
            clock.advance(seconds: 3_600)
            try await send(client, "on-time", created: ahead)
            clock.advance(seconds: 40 * Self.day)
            try await send(client, "late", created: ahead)
            let pings = Dictionary(uniqueKeysWithValues: try await server.store.sessions.pings(session: "clock").map { ($0.pingID, $0) })
            #expect(pings["early"]?.createdAt == Self.start + SenderClock.ahead)
            #expect(pings["early"]?.receivedAt == Self.start * 1000)
            #expect(pings["on-time"]?.createdAt == ahead)
            #expect(pings["on-time"]?.receivedAt == ahead * 1000)
            #expect(pings["late"]?.createdAt == clock.seconds() - SenderClock.behind)
            #expect(pings["late"]?.rawQuery.contains("c61=createtm,\(ahead)&") == true)
        }
    }

    /// Rejects and traces are pruned once the clock has moved past their retention, not before;
    /// pings stay.
    @Test func retentionIsCountedOnTheClock() async throws {
        let clock = ManualCensusClock(seconds: Self.start)
        try await withCensus(clock: clock) { client, server in
            try await send(client, "keep", created: Self.start)
            _ = try await HostileSenderTests.get(client, "prd=junk")
            let trace = CallTraceBatch(session: "t", appid: Self.app, sdk: "al.1", entries: [
                CallTraceEntry(seq: 0, time: Double(Self.start), call: "play", state: "idle")])
            try await client.execute(uri: WireRoute.trace, method: .post, body: ByteBuffer(data: trace.body())) {
                #expect($0.status == .ok)
            }
            let retention = server.policy.storage.retentionDays * Self.day
            clock.advance(seconds: retention - 1)
            await server.maintain()
            #expect(try await server.store.rejectReasons().count == 1)
            #expect(try await server.store.traces.trace(session: "t", appid: Self.app).count == 1)
            clock.advance(seconds: 2)
            await server.maintain()
            #expect(try await server.store.rejectReasons().isEmpty)
            #expect(try await server.store.traces.trace(session: "t", appid: Self.app).isEmpty)
            #expect(try await server.store.counts().pings == 1)
        }
    }

    /// An app's previous interval is remembered while pings built under it may still arrive
    /// (``AppRegistry/queueWindow``), counted on the clock.
    @Test func anIntervalCeilingLastsTheQueueWindowOnTheClock() async throws {
        let clock = ManualCensusClock(seconds: Self.start)
        try await Backend.sqlite.withStore(clock: clock) { store in
            try await store.apps.setSettings(AppSettings(enabled: true, durationPingInterval: 600), for: Self.app)
            try await store.apps.setSettings(AppSettings(enabled: true, durationPingInterval: 30), for: Self.app)
            #expect(try await store.apps.app(Self.app)?.intervalCeiling == 600)
            #expect(try await store.apps.app(Self.app)?.intervalChangedAt == Self.start)
            clock.advance(seconds: AppRegistry.queueWindow)
            try await store.apps.setSettings(AppSettings(enabled: true, durationPingInterval: 20), for: Self.app)
            #expect(try await store.apps.app(Self.app)?.intervalCeiling == 30)
        }
    }

    /// An export is signed at the clock's time.
    @Test func anExportIsSignedAtTheClocksTime() async throws {
        let clock = ManualCensusClock(seconds: Self.start)
        try await Backend.sqlite.withStore(clock: clock) { store in
            clock.advance(seconds: 42)
            let export = try await store.traces.signed([])
            #expect(export.signature.signedAt == Self.start + 42)
        }
    }
}
