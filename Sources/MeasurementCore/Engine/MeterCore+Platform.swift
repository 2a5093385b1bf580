/// Which product parts this build of the core carries.
///
/// The browser's engine (`scripts/build-browser-sdk`, compiled with `-D BROWSER_ENGINE`) leaves
/// out the parts no `ggPM` call can reach: DTVR's ID3 tags, the simplified API's events, the app
/// run and viewability; and the credit's changes (``CreditChanges``), as a page publishes no
/// credited totals. The Browser SDK's guide has none of them, and their code was a fifth of
/// the module a page downloads (docs/browser.md, decisions.md B11). A constant rather than
/// `#if` around each use: both builds type-check every line, and the optimizer drops what a
/// `false` guards, so the linker leaves those parts out.
extension MeterCore {
    #if BROWSER_ENGINE
    static let hasAppOnlyParts = false
    #else
    static let hasAppOnlyParts = true
    #endif

    /// What a build without those parts tells the app that calls one of them.
    static func appOnly(_ call: String) -> String {
        "\(call) is not measured by the browser SDK (DTVR tags, the simplified API, the app run and viewability are app-only)"
    }
}
