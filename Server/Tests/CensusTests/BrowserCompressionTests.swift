@testable import CensusHTTP
import CensusStore
import Crypto
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// The bundle and engine gzip-compressed to a browser that accepts gzip (census-decisions S56),
/// as they are otherwise: the same file once decoded (the page's `integrity` holds either way).
@Suite struct BrowserCompressionTests {
    /// `Accept-Encoding` as browsers, proxies and strangers send it.
    @Test(arguments: [
        (nil, false),
        ("", false),
        ("gzip", true),
        ("gzip, deflate, br, zstd", true),
        ("GZIP", true),
        ("x-gzip", true),
        ("deflate, br", false),
        ("identity", false),
        ("*", true),
        ("*;q=0", false),
        ("gzip;q=0", false),
        ("gzip; q=0.000, *", false),
        ("gzip;q=0.5", true),
        ("gzip ; Q=0.001", true),
        ("br;q=1.0, gzip;q=0.8, *;q=0.1", true),
        ("br, *;q=0", false),
        ("deflate, *;q=0.3", true),
        ("gzip;q=0, gzip", true),
        (",,, ;;=, gzip", true),
        ("gzipx, xgzip", false),
        ("gzip;level=9", true),
    ] as [(String?, Bool)])
    func acceptEncodingIsReadAsRFC9110Says(_ header: String?, _ admits: Bool) {
        #expect(AcceptEncoding.admitsGzip(header) == admits)
    }

    @Test func aLongHostileHeaderIsReadToItsEnd() {
        #expect(!AcceptEncoding.admitsGzip(String(repeating: "br;q=1;q=1,", count: 20_000)))
        #expect(AcceptEncoding.admitsGzip(String(repeating: ";", count: 200_000) + ",gzip"))
    }

    @Test func theChecksumIsGzips() {
        #expect(CRC32.checksum([]) == 0)
        #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)   // the standard check value
    }

    @Test func aCompressedCopyIsServedOnlyForItsOwnFile() throws {
        let assets = try #require(BrowserAssets.shipped)
        #expect(assets.engine.gzipped != nil && assets.bundle.gzipped != nil)
        let gzipped = try #require(assets.engine.gzipped.map { Array(buffer: $0) })
        var other = Array(buffer: assets.engine.buffer)
        #expect(BrowserAssets.Asset.isGzip(gzipped, of: other))
        other[other.count / 2] ^= 1
        #expect(!BrowserAssets.Asset.isGzip(gzipped, of: other))
        #expect(BrowserAssets.Asset(other, gzipped: gzipped).gzipped == nil)
        #expect(!BrowserAssets.Asset.isGzip(Array(gzipped.prefix(17)), of: []))
    }

    @Test func aBrowserAcceptingGzipIsSentTheCompressedFileAndOthersThePlainOne() async throws {
        try await Backend.sqlite.withStore { store in
            let server = CensusServer(store: store)
            try await Application(router: server.router()).test(.router) { client in
                for route in [BrowserController.browserEngineRoute, BrowserController.browserBundleRoute] {
                    var plain: [UInt8] = []
                    var plainTag: String?
                    try await client.execute(uri: route, method: .get) { response in
                        #expect(response.status == .ok)
                        #expect(response.headers[.contentEncoding] == nil)
                        #expect(response.headers[.vary] == "Accept-Encoding")
                        plain = Array(buffer: response.body)
                        plainTag = response.headers[.eTag]
                    }
                    try await client.execute(uri: route, method: .get,
                                             headers: [.acceptEncoding: "gzip, deflate, br"]) { response in
                        #expect(response.status == .ok)
                        #expect(response.headers[.contentEncoding] == "gzip")
                        #expect(response.headers[.vary] == "Accept-Encoding")
                        #expect(response.headers[.accessControlAllowOrigin] == "*")
                        let body = Array(buffer: response.body)
                        #expect(body.count < plain.count / 2)
                        #expect(BrowserAssets.Asset.isGzip(body, of: plain))
                        #expect(response.headers[.eTag] != plainTag)
                    }
                    try await client.execute(uri: route, method: .get, headers: [.acceptEncoding: "gzip;q=0"]) { response in
                        #expect(response.headers[.contentEncoding] == nil)
                        #expect(Array(buffer: response.body) == plain)
                    }
                }
            }
        }
    }
}
