@testable import CensusHTTP
@testable import CensusPostgres
@testable import CensusSQLite
@testable import CensusStore
@testable import MeterTables
import MeterWire
import Testing

/// ``CreditBounds``, walked cell by cell: each kind's limits on what one ping may credit.
@Suite struct CreditBoundsTests {
    static let now: Int64 = 1_700_000_000

    static func ping(_ kind: CreditKind, claims seconds: Int64, appMeter: Bool = true, length: Int64? = nil,
                     live: Bool = false, start: Int64? = nil, created: Int64 = now) -> IncomingPing {
        var ping = IncomingPing(pingID: "p", appID: "PA", product: "dcr", pingType: "timer", kind: kind, assetID: "a",
                                creditedSeconds: seconds, sessionID: "s", deviceID: "", optedOut: false, createdAt: created,
                                rawQuery: "")
        ping.bounds.fromAppMeter = appMeter
        ping.bounds.length = length
        ping.bounds.isLive = live
        ping.bounds.startedAt = start
        return ping
    }

    /// Kind, what the ping claims and carries, and the seconds credited with an announced interval of 60 s
    /// (tolerance 16 s: bound 76).
    @Test(arguments: [
        // AppMeter's pings: one announced interval.
        (ping(.content, claims: 60), 60), (ping(.content, claims: 76), 76), (ping(.content, claims: 86_400), 76),
        (ping(.ad, claims: 500), 76), (ping(.audio, claims: 77), 76), (ping(.station, claims: 1_000), 76),
        (ping(.dtvr, claims: 69), 69), (ping(.dtvr, claims: 3_600), 76),
        // The original SDKs' cadence: 5 minutes, 30 for static pages.
        (ping(.content, claims: 300, appMeter: false), 300), (ping(.content, claims: 900, appMeter: false), 340),
        (ping(.static, claims: 1_800, appMeter: false), 1_800), (ping(.static, claims: 9_000, appMeter: false), 1_990),
        // An on-demand asset's length bounds it; a live one's does not.
        (ping(.content, claims: 60, length: 30), 32), (ping(.ad, claims: 40, length: 15), 17),
        (ping(.content, claims: 60, length: 30, live: true), 60), (ping(.station, claims: 60, length: 5), 60),
        // Static and app run time: no more than the clock from the start to the ping's creation.
        (ping(.static, claims: 60, start: now - 40), 50), (ping(.static, claims: 60, start: now - 600), 60),
        (ping(.app, claims: 7_200, start: now - 7_200), 7_200), (ping(.app, claims: 86_400, start: now - 100), 110),
        (ping(.app, claims: 86_400), 76), (ping(.app, claims: 86_400, appMeter: false), 1_990), (ping(.app, claims: 5, start: now + 10), 5),
        // A creation time far past the receipt is read as the receipt (and the clocks' skew).
        (ping(.app, claims: 86_400, start: now - 1_000, created: now + 80_000), 1_310),
        (ping(.app, claims: 86_400, start: 1, created: .max), 86_400),
    ] as [(IncomingPing, Int64)])
    func eachKindIsHeldToItsBound(_ ping: IncomingPing, _ credited: Int64) {
        var bounded = ping
        CreditBounds.apply(to: &bounded, interval: 60, receivedAt: Self.now)
        #expect(bounded.creditedSeconds == credited)
        #expect(bounded.overBoundSeconds == ping.creditedSeconds - credited)
    }

    @Test func everyKindHasRules() {
        for kind in CreditKind.allCases { #expect(CreditBounds.rules[kind]?.isEmpty == false, "\(kind)") }
    }

    /// Bounding twice changes nothing: the claim is the credited and over-bound seconds together.
    @Test func boundingIsIdempotent() {
        var ping = Self.ping(.content, claims: 10_000)
        CreditBounds.apply(to: &ping, interval: 60, receivedAt: Self.now)
        let once = ping
        CreditBounds.apply(to: &ping, interval: 60, receivedAt: Self.now)
        #expect(ping == once)
        #expect(ping.creditedSeconds + ping.overBoundSeconds == 10_000)
    }

    /// A larger interval announced before a change still bounds pings for the queue's lifetime.
    @Test func aChangedIntervalKeepsTheLargerOneWhileQueuedPingsMayArrive() async throws {
        try await Backend.sqlite.withStore { store in
            let registry = AppRegistry()
            try await store.apps.setSettings(AppSettings(enabled: true, durationPingInterval: 600), for: "PA", now: 1_000)
            try await store.apps.setSettings(AppSettings(enabled: true, durationPingInterval: 30), for: "PA", now: 2_000)
            try await registry.reload(from: store)
            #expect(registry.intervalBound(for: "PA", at: 2_000) == 600)
            #expect(registry.intervalBound(for: "PA", at: 2_000 + AppRegistry.queueWindow) == 30)
            #expect(registry.intervalBound(for: "PB", at: 2_000) == 60)
            // An app first set below the standard interval keeps the standard one for its queued pings.
            try await store.apps.setSettings(AppSettings(enabled: true, durationPingInterval: 20), for: "PC", now: 3_000)
            try await registry.reload(from: store)
            #expect(registry.intervalBound(for: "PC", at: 3_000) == 60)
        }
    }
}

/// Which app's quota a refused request counts against.
@Suite struct RejectOriginTests {
    @Test(arguments: [
        ("/cgi-bin/gn?prd=dcr&c13=asid,PABC&at=x", "PABC"),
        ("/cgi-bin/gn?prd=dcr&c13=asid%2CPABC", "PABC"),
        ("/nmapi/v2/0B1E6B8A/c_1/a?b=x", "P0B1E6B8A"),
        ("/cgi-bin/gn?prd=junk", ""),
        ("/cgi-bin/gn?c13=asid," + String(repeating: "x", count: 500), String(repeating: "x", count: 64)),
        // Requests the reader refuses still name their app.
        ("/cgi-bin/gn?c13=asid,PABC&x=%zz", "PABC"), ("/cgi-bin/gn?c13=asid,PABC&c13=asid,POTHER", "PABC"),
        // Only a parameter named `c13`, only a path that is an AMP event's, names one: no more a
        // marker inside another parameter or the query.
        ("/cgi-bin/gn?ref=c13=asid,PEVIL", ""), ("/cgi-bin/gn?xc13=asid,PEVIL", ""), ("/cgi-bin/gn?ref=/nmapi/v2/EVIL/", ""),
    ])
    func theAppARefusedRequestNames(_ request: String, _ appid: String) {
        #expect(StorageBudget.appid(ofRequest: request) == appid)
    }
}
