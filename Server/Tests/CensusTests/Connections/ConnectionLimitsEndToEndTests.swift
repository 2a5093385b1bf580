@testable import CensusHTTP
@testable import CensusPostgres
@testable import CensusSQLite
@testable import CensusStore
@testable import MeterTables
import Foundation
import NIOCore
import Testing

/// A census on loopback with short limits, against slow connections over real sockets: the
/// slow ones are closed, and real clients are answered and their pings stored meanwhile.
@Suite(.serialized) struct ConnectionLimitsEndToEndTests {
    static let limits = ConnectionLimits(headerTimeout: .milliseconds(500), bodyTimeout: .seconds(1),
                                         idleTimeout: .seconds(1), maxConnections: 100)

    static func withCensus(_ body: (RunningCensus) async throws -> Void) async throws {
        try await Backend.sqlite.withFreshDatabase { location in
            let census = try await RunningCensus.start(database: location, connectionLimits: limits)
            do {
                try await body(census)
            } catch {
                await census.stop()
                throw error
            }
            await census.stop()
        }
    }

    /// Waits until `condition` holds, for at most 20 s (a loaded host, the thread sanitizer).
    static func until(_ condition: () -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(20)
        while !condition(), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(50)) }
    }

    @Test func threeHundredHalfHeadsAreClosedWhileHealthzAndPingsAreAnswered() async throws {
        try await Self.withCensus { census in
            var slow: [any Channel] = []
            for _ in 0..<300 {
                let channel = try await LoopbackClient.open(port: census.port)
                // On a slow host (the thread sanitizer) the census may close it, to make room or
                // by the header timeout, before its half head is written: what is under test.
                try? await channel.writeAndFlush(ByteBuffer(string: "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: "))
                slow.append(channel)
            }
            // Beyond the cap of 100, each new one made room by closing the oldest slow one.
            let health = try await LoopbackClient.get(port: census.port, "/healthz")
            #expect(health.hasPrefix("HTTP/1.1 200 OK") && health.hasSuffix("ok\n"))
            let ping = try await LoopbackClient.get(port: census.port, "/cgi-bin/gn?" + PingQueries.valid(pingID: "held-1"))
            #expect(ping.hasSuffix("stored\n"))
            // At most the cap open: the rest made room for newer ones, or (on a slow host) timed out first.
            let counters = census.server.connections.counters
            #expect(counters.open <= 100)
            #expect(counters.evicted + counters.headerTimeouts >= 200)

            // The header timeout closes the rest (waited for, boundedly: no timing is asserted).
            try await Self.until { slow.allSatisfy { !$0.isActive } }
            #expect(slow.filter(\.isActive).count == 0)
            #expect(census.server.connections.counters.headerTimeouts >= 1)
            #expect(try await census.server.store.counts().pings == 1)
            for channel in slow { try? await channel.close() }
        }
    }

    @Test func aTrickledBodyAndAnIdleConnectionAreClosed() async throws {
        try await Self.withCensus { census in
            let body = try await LoopbackClient.open(
                port: census.port, sending: "POST /cgi-bin/gn/batch HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nabc")
            let idle = try await LoopbackClient.open(port: census.port, sending: "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            try await Self.until { !body.isActive && !idle.isActive }
            #expect(!body.isActive)
            #expect(!idle.isActive)
            let counters = census.server.connections.counters
            #expect(counters.bodyTimeouts == 1)
            #expect(counters.idleTimeouts == 1)
            #expect(counters.open == 0)
        }
    }
}
