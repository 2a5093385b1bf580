import Foundation

/// The opt-out page URL for a flavour and market (Nielsen's public opt-out documentation).
///
/// `https://priv-policy.imrworldwide.com/priv/<device type>/<country>/<language>/optout.html`;
/// the user-choice (no ad framework) flavour uses the legacy page, whose links end in
/// `nielsenappsdk://0|1`.
package enum OptOutPage {
    /// The URL string.
    package static func url(flavor: SDKFlavor, market: MarketProfile, deviceType: String) -> String {
        let page = flavor == .noAdFramework ? "optout_legacy.html" : "optout.html"
        return "https://priv-policy.imrworldwide.com/priv/\(deviceType)/\(market.privacyCountry)/\(market.privacyLanguage)/\(page)"
    }

    /// The value the opt-out page navigates to when the user is done (`kNielsenWebClose`).
    package static let closeCommand = "nielsen://close"
    /// Navigating here opts the user out.
    package static let optOutCommand = "nielsenappsdk://1"
    /// Navigating here opts the user in.
    package static let optInCommand = "nielsenappsdk://0"

    /// The choice a navigation URL carries: true (out), false (in), or nil for any other URL.
    package static func choice(in command: String) -> Bool? {
        switch command.trimmingCharacters(in: .whitespacesAndNewlines) {
        case optOutCommand: true
        case optInCommand: false
        default: nil
        }
    }
}
