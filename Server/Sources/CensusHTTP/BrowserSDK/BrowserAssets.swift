import CensusStore
import Crypto
import Foundation
import NIOCore

/// The browser SDK's files as the census serves them (docs/browser.md): the bundle's JavaScript,
/// the engine compiled to WebAssembly (built by scripts/build-browser-sdk, checked in) and the
/// template of each app's configuration file, read once from the census's resources with the
/// integrity hash a page checks them against.
struct BrowserAssets: Sendable {
    /// A served file.
    struct Asset: Sendable {
        /// The file, allocated once: every response shares its storage (a `ByteBuffer` is copied
        /// on write only), so a thousand answers waiting for clients that do not read cost one copy
        /// (census-decisions S40).
        let buffer: ByteBuffer
        /// The same file gzip-compressed (built with it by scripts/build-browser-sdk), answered to
        /// a browser that accepts gzip (census-decisions S56); nil when it is not beside the file.
        let gzipped: ByteBuffer?
        /// The same file Brotli-compressed, answered to a browser that prefers it (S56); nil when
        /// it is not beside the file or was built from another one.
        let brotli: ByteBuffer?
        /// `sha384-<base64>`, for the `integrity` a page's loader asks the browser to check (of
        /// the file as decoded, whichever encoding carried it).
        let integrity: String

        /// The file `bytes`, with what scripts/build-browser-sdk built beside it: `gzipped`, and
        /// `brotli` with `brotliDigests`, the hex SHA-256s of the file it was compressed from and
        /// of itself, a space between (a Brotli stream names no checksum of what it holds, and the
        /// census has no decoder).
        init(_ bytes: [UInt8], gzipped: [UInt8]?, brotli: [UInt8]? = nil, brotliDigests: [UInt8]? = nil) {
            buffer = ByteBuffer(bytes: bytes)
            self.gzipped = gzipped.flatMap { Self.isGzip($0, of: bytes) ? ByteBuffer(bytes: $0) : nil }
            self.brotli = brotli.flatMap { brotli in
                Self.isBrotli(brotli, of: bytes, digests: brotliDigests) ? ByteBuffer(bytes: brotli) : nil
            }
            integrity = "sha384-" + Data(SHA384.hash(data: bytes)).base64EncodedString()
        }

        /// Whether `digests` (`<SHA-256 of the file> <SHA-256 of the copy>`) name `bytes` and
        /// `brotli` both: a copy left from another build, or cut short, is not served.
        static func isBrotli(_ brotli: [UInt8], of bytes: [UInt8], digests: [UInt8]?) -> Bool {
            guard let digests else { return false }
            let names = String(decoding: digests, as: UTF8.self).split(whereSeparator: \.isWhitespace)
            return names.count == 2 && names[0] == hexSHA256(bytes) && names[1] == hexSHA256(brotli)
        }

        /// The codings the file is kept in, the census's choice first between equal weights: the smaller.
        var codings: [ContentCoding] {
            (brotli == nil ? [] : [.brotli]) + (gzipped == nil ? [] : [.gzip])
        }

        /// The file in `coding`.
        func body(_ coding: ContentCoding) -> ByteBuffer? {
            switch coding {
            case .brotli: brotli
            case .gzip: gzipped
            }
        }

        static func hexSHA256(_ bytes: [UInt8]) -> String {
            SHA256.hash(data: bytes).map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
        }

        /// Whether `gzipped` is a gzip member whose trailer names `bytes` (RFC 1952: its CRC-32
        /// and length): a compressed copy left from another build is not served for this one.
        static func isGzip(_ gzipped: [UInt8], of bytes: [UInt8]) -> Bool {
            guard gzipped.count >= 18, gzipped[0] == 0x1f, gzipped[1] == 0x8b, gzipped[2] == 8 else { return false }
            func word(_ at: Int) -> UInt32 {
                (0..<4).reduce(0) { $0 | UInt32(gzipped[at + $1]) << (8 * UInt32($1)) }
            }
            return word(gzipped.count - 8) == CRC32.checksum(bytes)
                && word(gzipped.count - 4) == UInt32(truncatingIfNeeded: bytes.count)
        }
    }

    /// `appmeter.js`: the NOLBUNDLE runtime.
    let bundle: Asset
    /// `appmeter-core.wasm`: the engine.
    let engine: Asset
    /// `conf-loader.js`, with `/*CONFIG*/` where each app's configuration goes.
    let loaderTemplate: String
    /// `player.html`: the demo page.
    let demoPage: String

    /// The files shipped with the census; nil when its resources are missing (a binary copied
    /// without its `.resources` folder), which the routes answer with 404 and the reason.
    static let shipped: BrowserAssets? = {
        func read(_ name: String, _ type: String) -> [UInt8]? {
            guard let url = Bundle.module.url(forResource: name, withExtension: type, subdirectory: "Browser") else { return nil }
            return (try? Data(contentsOf: url)).map { [UInt8]($0) }
        }
        guard let bundle = read("appmeter", "js"), let engine = read("appmeter-core", "wasm"),
              let loader = read("conf-loader", "js"), let page = read("player", "html")
        else { return nil }
        func asset(_ bytes: [UInt8], _ name: String) -> Asset {
            Asset(bytes, gzipped: read(name, "gz"), brotli: read(name, "br"), brotliDigests: read(name + ".br", "sha256"))
        }
        return BrowserAssets(bundle: asset(bundle, "appmeter.js"),
                             engine: asset(engine, "appmeter-core.wasm"),
                             loaderTemplate: String(decoding: loader, as: UTF8.self),
                             demoPage: String(decoding: page, as: UTF8.self))
    }()
}
