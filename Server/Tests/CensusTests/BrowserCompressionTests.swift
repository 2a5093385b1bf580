@testable import CensusHTTP
import CensusStore
import Crypto
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// The bundle and engine compressed as a browser prefers, Brotli or gzip (census-decisions S56),
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
        #expect(AcceptEncoding.preferred(header, among: [.gzip]) == (admits ? .gzip : nil))
    }

    /// Between the two codings the census keeps: the higher weight, a coding not listed weighing
    /// what `*` does, Brotli (the smaller) between equal weights.
    @Test(arguments: [
        (nil, nil),
        ("gzip, deflate", .gzip),                 // Chromium over HTTP
        ("gzip, deflate, br, zstd", .brotli),     // Chromium over HTTPS
        ("br", .brotli),
        ("BR;q=0.5, gzip;q=0.4", .brotli),
        ("br;q=0.4, gzip;q=0.5", .gzip),
        ("br;q=0, gzip", .gzip),
        ("br, gzip;q=0", .brotli),
        ("*", .brotli),
        ("*;q=0.5, gzip", .gzip),
        ("gzip;q=0.5, *", .brotli),
        ("identity, deflate", nil),
        ("br;q=0.001", .brotli),
        ("br;q=1.000, gzip", .brotli),
        // Weights the RFC's grammar does not allow: the member is left out.
        ("br;q=-1, gzip;q=0.1", .gzip),
        ("br;q=.5, gzip;q=0.1", .gzip),
        ("br;q=00.5, gzip;q=0.1", .gzip),
        ("br;q=0.5.5, gzip;q=0.1", .gzip),
        ("br;q=0.0001, gzip;q=0.1", .gzip),
        ("br;q=1.001, gzip;q=0.1", .gzip),
        ("br;q=2, gzip;q=0.1", .gzip),
        ("br;q=, gzip;q=0.1", .gzip),
        ("br;q=0.5x", nil),
        ("identity;q=1, gzip;q=0.1", .gzip),
        ("br;q=0.001, gzip;q=0.001", .brotli),
        ("x-gzip;q=1.0, br;q=0.999", .gzip),
        ("br;q=0.9, br;q=0, gzip;q=0.8", .brotli),
        ("br;q=0., gzip;q=0.000, *;q=0", nil),
    ] as [(String?, ContentCoding?)])
    func theHigherWeightWinsAndBrotliATie(_ header: String?, _ coding: ContentCoding?) {
        #expect(AcceptEncoding.preferred(header, among: [.brotli, .gzip]) == coding)
    }

    @Test func aLongHostileHeaderIsReadToItsEnd() {
        #expect(AcceptEncoding.preferred(String(repeating: "br;q=1;q=1,", count: 20_000), among: [.gzip]) == nil)
        #expect(AcceptEncoding.preferred(String(repeating: "br;q=1;q=1,", count: 20_000), among: [.brotli, .gzip]) == .brotli)
        #expect(AcceptEncoding.preferred(String(repeating: ";", count: 200_000) + ",gzip", among: [.brotli, .gzip]) == .gzip)
        #expect(AcceptEncoding.preferred("gzip;q=0." + String(repeating: "0", count: 200_000) + "1", among: [.gzip]) == nil)
        #expect(AcceptEncoding.preferred(String(repeating: "gzip;q=0.001,", count: 20_000), among: [.gzip]) == .gzip)
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

    @Test func aBrotliCopyIsServedOnlyWholeAndForTheFileItWasMadeFrom() throws {
        let assets = try #require(BrowserAssets.shipped)
        #expect(assets.engine.brotli != nil && assets.bundle.brotli != nil)
        #expect(assets.engine.codings == [.brotli, .gzip])
        let plain = Array(buffer: assets.engine.buffer)
        let brotli = try #require(assets.engine.brotli.map { Array(buffer: $0) })
        let digests = Array((BrowserAssets.Asset.hexSHA256(plain) + " " + BrowserAssets.Asset.hexSHA256(brotli) + "\n").utf8)
        #expect(BrowserAssets.Asset(plain, gzipped: nil, brotli: brotli, brotliDigests: digests).codings == [.brotli])
        #expect(BrowserAssets.Asset(plain, gzipped: nil, brotli: brotli, brotliDigests: nil).brotli == nil)
        // Cut short, or another build's copy beside this file: not served.
        #expect(BrowserAssets.Asset(plain, gzipped: nil, brotli: Array(brotli.dropLast()), brotliDigests: digests).brotli == nil)
        var other = plain
        other[other.count / 2] ^= 1
        #expect(BrowserAssets.Asset(other, gzipped: nil, brotli: brotli, brotliDigests: digests).brotli == nil)
        // Digests of one file only, or three: not served.
        #expect(BrowserAssets.Asset(plain, gzipped: nil, brotli: brotli,
                                    brotliDigests: Array(BrowserAssets.Asset.hexSHA256(plain).utf8)).brotli == nil)
        #expect(BrowserAssets.Asset(plain, gzipped: nil, brotli: brotli, brotliDigests: digests + digests).brotli == nil)
        // A stale gzip copy and no Brotli one: the plain file only.
        let gzipped = try #require(assets.engine.gzipped.map { Array(buffer: $0) })
        #expect(BrowserAssets.Asset(other, gzipped: gzipped).codings.isEmpty)
        #expect(BrowserAssets.Asset(plain, gzipped: gzipped).codings == [.gzip])
        // The standard check value of SHA-256, as sha256sum writes it.
        #expect(BrowserAssets.Asset.hexSHA256(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test func aBrowserIsSentTheCodingItPrefersAndOthersThePlainFile() async throws {
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
                    var gzipTag: String?
                    try await client.execute(uri: route, method: .get,
                                             headers: [.acceptEncoding: "gzip, deflate"]) { response in
                        #expect(response.status == .ok)
                        #expect(response.headers[.contentEncoding] == "gzip")
                        #expect(response.headers[.vary] == "Accept-Encoding")
                        #expect(response.headers[.accessControlAllowOrigin] == "*")
                        let body = Array(buffer: response.body)
                        #expect(body.count < plain.count / 2)
                        #expect(BrowserAssets.Asset.isGzip(body, of: plain))
                        #expect(response.headers[.eTag] != plainTag)
                        gzipTag = response.headers[.eTag]
                        #expect(gzipTag == plainTag.map { String($0.dropLast()) + "+gzip\"" })
                    }
                    let shipped = try #require(BrowserAssets.shipped)
                    let asset = route == BrowserController.browserEngineRoute ? shipped.engine : shipped.bundle
                    try await client.execute(uri: route, method: .get,
                                             headers: [.acceptEncoding: "gzip, deflate, br, zstd"]) { response in
                        #expect(response.status == .ok)
                        #expect(response.headers[.contentEncoding] == "br")
                        #expect(response.headers[.vary] == "Accept-Encoding")
                        let body = Array(buffer: response.body)
                        // The copy whose digest the build wrote (browser-check decodes it with brotli).
                        #expect(body == asset.brotli.map { Array(buffer: $0) })
                        #expect(response.headers[.eTag] == "\"\(asset.integrity)+br\"")
                        #expect(body.count < plain.count / 2)
                        #expect(response.headers[.eTag] != plainTag && response.headers[.eTag] != gzipTag)
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
