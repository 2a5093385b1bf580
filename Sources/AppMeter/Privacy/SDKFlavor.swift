/// The three SDK flavours of the integration guides, which decide how opt-out works and which
/// identifiers exist.
public enum SDKFlavor: String, Sendable, CaseIterable {
    /// The device's ad-tracking setting (ATT / Limit Ad Tracking) decides opt-out; the ad id is used.
    case global
    /// No ad framework: the vendor id is used and the user chooses on the opt-out page.
    case noAdFramework
    /// No identifier of any kind, opted out from the start (Kids apps, Ireland).
    case noID

    /// True in a build with the `NoAdvertisingIdentifier` package trait: AdSupport and
    /// AppTrackingTransparency are not linked and every instance is noID, whatever appInfo asks.
    public static var advertisingIdentifierCompiledOut: Bool {
        #if APPMETER_NO_ADVERTISING_ID
        true
        #else
        false
        #endif
    }

    /// The flavour in force: noID in a build without the advertising identifier, else the market's
    /// requirement, else appInfo's `nol_sdkFlavor`, else the environment's default.
    package static func inForce(
        required: SDKFlavor?, requested: SDKFlavor?, fallback: SDKFlavor,
        compiledOut: Bool = advertisingIdentifierCompiledOut
    ) -> SDKFlavor {
        compiledOut ? .noID : required ?? requested ?? fallback
    }

    /// Reads the appInfo value `nol_sdkFlavor` (`global`, `noAdFramework`, `noID`; any case).
    public init?(appInfoValue: String) {
        guard let match = Self.allCases.first(where: { $0.rawValue.lowercased() == appInfoValue.lowercased() })
        else { return nil }
        self = match
    }
}
