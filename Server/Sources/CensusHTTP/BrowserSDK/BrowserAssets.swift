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
        /// `sha384-<base64>`, for the `integrity` a page's loader asks the browser to check.
        let integrity: String

        init(_ bytes: [UInt8]) {
            buffer = ByteBuffer(bytes: bytes)
            integrity = "sha384-" + Data(SHA384.hash(data: bytes)).base64EncodedString()
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
        return BrowserAssets(bundle: Asset(bundle), engine: Asset(engine),
                             loaderTemplate: String(decoding: loader, as: UTF8.self),
                             demoPage: String(decoding: page, as: UTF8.self))
    }()
}
