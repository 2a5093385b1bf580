@testable import CensusHTTP
@testable import CensusPostgres
@testable import CensusSQLite
@testable import CensusStore
@testable import MeterTables
import Foundation
import Hummingbird
import HummingbirdTesting
import InMemoryLogging
import Logging
import NIOCore
import NIOEmbedded
import NIOHTTPTypesHTTP1
import Testing

/// The access log (docs/census.md §4f, census-decisions.md S36): addresses cut or hashed, paths
/// without their query and escaped, one line per request on the fast path and through the router.
@Suite struct AccessLogTests {
    static func address(_ text: String) throws -> SocketAddress { try SocketAddress(ipAddress: text, port: 4321) }

    @Test(arguments: [("203.0.113.77", "203.0.113.0"), ("2001:db8:1:2:3::5", "2001:db8:1::"),
                      ("::ffff:203.0.113.77", "203.0.113.0"), ("::1", "::")])
    func truncatedAddressesKeepTheirNetworkOnly(_ address: String, _ shown: String) throws {
        #expect(ClientAddress.shown(try Self.address(address), as: .truncated) == shown)
    }

    @Test func hashedAddressesAreKeyedAndStableWithinTheProcess() throws {
        let first = ClientAddress.shown(try Self.address("203.0.113.77"), as: .hashed)
        #expect(first.count == 16 && first.allSatisfy(\.isHexDigit))
        #expect(ClientAddress.shown(try Self.address("203.0.113.77"), as: .hashed) == first)
        #expect(ClientAddress.shown(try Self.address("::ffff:203.0.113.77"), as: .hashed) == first)
        #expect(ClientAddress.shown(try Self.address("203.0.113.78"), as: .hashed) != first)
        // The address's own bytes (cb 00 71 4d) are not in it; its digits may be, by chance (1 run in ~300).
        #expect(!first.contains("cb00714d"))
    }

    @Test func fullAddressesOnlyWhenAsked() throws {
        #expect(ClientAddress.shown(try Self.address("203.0.113.77"), as: .full) == "203.0.113.77")
        #expect(ClientAddress.shown(try SocketAddress(unixDomainSocketPath: "/tmp/census.sock"), as: .truncated) == "local")
        #expect(ClientAddress.shown(nil, as: .full) == "unknown")
    }

    @Test(arguments: [("/cgi-bin/gn?c9=devid,abc&c1=nuid,xyz", "/cgi-bin/gn"), ("/a#frag", "/a"),
                      ("/a\nGET /forged 200", "/a%0AGET%20/forged%20200"), ("/\u{1b}[2J\"\\", "/%1B[2J%22%5C"),
                      ("/caf\u{e9}", "/caf%C3%A9"), ("/api/v1/report", "/api/v1/report")])
    func pathsLoseTheirQueryAndCannotForgeALine(_ uri: String, _ logged: String) {
        #expect(AccessLogLine.path(of: uri) == logged)
    }

    @Test func longPathsAreCut() {
        let path = AccessLogLine.path(of: "/" + String(repeating: "a", count: 1000))
        #expect(path.utf8.count == AccessLogLine.maxPathBytes + "…".utf8.count)
        #expect(path.hasSuffix("…"))
    }

    @Test(arguments: [(Int64(412_345), "0.412"), (1_204_000, "1.204"), (5_000_000_000, "5000.000"), (999, "0.000")])
    func millisecondsAreWrittenWithoutAFormatter(_ nanoseconds: Int64, _ text: String) {
        #expect(AccessLogLine.milliseconds(nanoseconds) == text)
    }

    @Test func theInstallerPutsTheLogInFrontOfThePingFastPath() async throws {
        try await Backend.sqlite.withStore { store in
            let channel = EmbeddedChannel()
            let pipeline = channel.pipeline.syncOperations
            try pipeline.addHandler(HTTP1ToHTTPServerCodec(secure: false))
            try pipeline.addHandler(AccessLogInstaller(log: AccessLog(addresses: .truncated)))
            try pipeline.addHandler(PingIngestInstaller(intake: CensusServer(store: store).intake))
            let order = channel.pipeline.debugDescription
            let log = try #require(order.range(of: "AccessLogHandler"))
            let fastPath = try #require(order.range(of: "PingIngestHandler"))
            #expect(log.lowerBound < fastPath.lowerBound)
            _ = try channel.finish()
        }
    }

    @Test func aLiveServerLogsEveryRequestWithoutItsQueryOrFullAddress() async throws {
        let handler = InMemoryLogHandler()
        let log = AccessLog(addresses: .truncated, logger: Logger(label: "Census.access") { _ in handler })
        try await Backend.sqlite.withStore { store in
            let server = CensusServer(store: store, accessLog: log)
            try await server.application(host: "127.0.0.1", port: 0).test(.live) { client in
                try await client.execute(uri: "/cgi-bin/gn?" + PingQueries.valid(pingID: "logged-1"), method: .get) { _ in }
                try await client.execute(uri: "/healthz?x=1", method: .get) { _ in }
                try await client.execute(uri: "/nowhere", method: .get) { _ in }
            }
        }
        log.flush()
        let entries = handler.entries
        #expect(entries.map(\.message.description) == ["GET /cgi-bin/gn 200", "GET /healthz 200", "GET /nowhere 404"])
        #expect(entries.allSatisfy { $0.level == .info && $0.metadata["client"] == "127.0.0.0" })
        #expect(entries.first?.metadata["bytes"]?.description == "7")   // "stored\n"
        #expect(!entries.contains { "\($0.message) \($0.metadata)".contains("devid") })
    }
}
