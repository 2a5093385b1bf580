import CensusStore
import Foundation
import Hummingbird
import MeasurementCore
import MeterWire

/// The browser SDK's routes (docs/browser.md): each app's configuration file, as the guide's
/// snippet loads it (`/conf/<apid>.js#name=…&ns=NOLBUNDLE`), the bundle and engine it loads, and
/// a demo player page. Open to any origin, as a measurement tag's files are; never the read API.
package struct BrowserController: Sendable {
    let intake: CensusIntake

    /// The bundle's path.
    static let browserBundleRoute = "/browser/appmeter.js"
    /// The engine's path.
    static let browserEngineRoute = "/browser/appmeter-core.wasm"
    /// The demo player's path.
    package static let browserDemoRoute = "/browser/demo"

    func addRoutes(to router: Router<BasicRequestContext>) {
        router.get("/conf/:file") { request, context in
            await configurationFile(context.parameters.get("file") ?? "", optedOut: BrowserOptOut.isSet(in: request))
        }
        router.get(RouterPath(BrowserOptOut.route)) { request, _ in BrowserOptOut.page(for: request) }
        router.post(RouterPath(BrowserOptOut.route)) { request, _ in await BrowserOptOut.choose(request) }
        router.get(RouterPath(Self.browserBundleRoute)) { request, _ in
            Self.asset(\.bundle, type: "text/javascript; charset=utf-8", for: request)
        }
        router.get(RouterPath(Self.browserEngineRoute)) { request, _ in
            Self.asset(\.engine, type: "application/wasm", for: request)
        }
        router.get(RouterPath(Self.browserDemoRoute)) { _, _ in
            guard let assets = BrowserAssets.shipped else { return Self.assetsMissing }
            return Response(status: .ok, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-cache"],
                            body: .init(byteBuffer: ByteBuffer(string: assets.demoPage)))
        }
    }

    /// `<apid>.js`: the loader with the app's configuration, for any apid the census accepts
    /// pings from; 404 with the reason for any other.
    private func configurationFile(_ file: String, optedOut: Bool) async -> Response {
        guard let assets = BrowserAssets.shipped else { return Self.assetsMissing }
        guard file.hasSuffix(".js") else { return .text(.notFound, "a configuration file is /conf/<apid>.js") }
        let apid = String(file.dropLast(3))
        guard MeasuredApp.isValidAppID(apid) else {
            return .text(.notFound, "the file name is not an apid (P or T, then a GUID) followed by .js")
        }
        guard intake.registry.admits(apid) else { return .text(.notFound, "the census does not accept pings from \(apid)") }
        let settings: AppSettings
        do { settings = try await intake.store.apps.settings(for: apid) } catch {
            return CensusError.configUnavailable.response
        }
        let configuration = BrowserConfiguration(
            apid: apid, enabled: settings.enabled, interval: settings.durationPingInterval, sfcode: settings.sfcode,
            bundle: Self.browserBundleRoute, bundleIntegrity: assets.bundle.integrity,
            engine: Self.browserEngineRoute, engineIntegrity: assets.engine.integrity, ping: WireRoute.ping,
            trace: WireRoute.trace, optout: optedOut)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let json = (try? encoder.encode(configuration)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        let body = assets.loaderTemplate.replacingOccurrences(of: "/*CONFIG*/", with: json)
        intake.events.record(.configAnswered)
        return Response(
            status: .ok,
            // It says whether this browser opted out (its cookie), so it is cached by this browser only.
            headers: [.contentType: "text/javascript; charset=utf-8", .cacheControl: "private, max-age=300",
                      .vary: "Cookie", .accessControlAllowOrigin: "*"],
            body: .init(byteBuffer: ByteBuffer(string: body)))
    }

    /// A bundle file, compressed as the browser prefers of what the census keeps (census-decisions S56).
    private static func asset(_ path: KeyPath<BrowserAssets, BrowserAssets.Asset>, type: String,
                              for request: Request) -> Response {
        guard let assets = BrowserAssets.shipped else { return assetsMissing }
        let asset = assets[keyPath: path]
        // Pages pin the file by its hash (`integrity`), and each configuration names the current
        // one, so an hour of caching cannot mix versions.
        var headers: HTTPFields = [.contentType: type, .cacheControl: "public, max-age=3600", .accessControlAllowOrigin: "*",
                                   .eTag: "\"\(asset.integrity)\""]
        var body = asset.buffer
        let codings = asset.codings
        if !codings.isEmpty {
            // Caches keep one answer per encoding; each encoding has a tag of its own (RFC 9110 §8.8.3).
            headers[.vary] = "Accept-Encoding"
            let accepted = request.headers[values: .acceptEncoding].joined(separator: ",")
            if let coding = AcceptEncoding.preferred(accepted, among: codings), let encoded = asset.body(coding) {
                headers[.contentEncoding] = coding.rawValue
                headers[.eTag] = "\"\(asset.integrity)+\(coding.rawValue)\""
                body = encoded
            }
        }
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: body))
    }

    private static var assetsMissing: Response {
        .text(.notFound, "the browser SDK's files are not next to this census binary (its AppMeterServer_Census.resources folder)")
    }
}

/// What a page's loader is told about its app (the `/*CONFIG*/` of conf-loader.js).
struct BrowserConfiguration: Codable, Equatable {
    var apid: String
    /// False: the census turned measurement off for this app (the SDK measures nothing).
    var enabled: Bool
    /// The census's `durationPingInterval`.
    var interval: Int64
    /// The app's market, when the census has one: it wins over the page's `nol_sfcode`
    /// (docs/decisions.md B11a). Absent from the file otherwise.
    var sfcode: String?
    var bundle: String
    var bundleIntegrity: String
    var engine: String
    var engineIntegrity: String
    /// The ping route, from the contract.
    var ping: String
    /// The call trace's route, where a page with `nol_sdkDebug` posts its calls.
    var trace: String
    /// This browser opted out on the census's privacy page: its pings carry no identifier.
    var optout: Bool
}
