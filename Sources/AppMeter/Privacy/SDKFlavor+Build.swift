extension SDKFlavor {
    /// True in a build with the `NoAdvertisingIdentifier` package trait: AdSupport and
    /// AppTrackingTransparency are not linked and every instance is noID, whatever appInfo asks.
    public static var advertisingIdentifierCompiledOut: Bool {
        #if APPMETER_NO_ADVERTISING_ID
        true
        #else
        false
        #endif
    }

    /// True in a build with the `NoAdFramework` or `NoAdvertisingIdentifier` package trait: AdSupport
    /// and AppTrackingTransparency are not linked, so no instance reads the ad id and a `global`
    /// request is measured as `noAdFramework` (docs/privacy.md, decision P12).
    public static var adFrameworkCompiledOut: Bool {
        #if APPMETER_NO_AD_FRAMEWORK
        true
        #else
        false
        #endif
    }

    /// The flavour in force: noID in a build without the advertising identifier, else the market's
    /// requirement, else appInfo's `nol_sdkFlavor`, else the environment's default; in a build
    /// without the ad framework, `global` becomes `noAdFramework`.
    package static func inForce(
        required: SDKFlavor?, requested: SDKFlavor?, fallback: SDKFlavor,
        compiledOut: Bool = advertisingIdentifierCompiledOut, adFrameworkCompiledOut: Bool = adFrameworkCompiledOut
    ) -> SDKFlavor {
        if compiledOut { return .noID }
        let chosen = required ?? requested ?? fallback
        return adFrameworkCompiledOut && chosen == .global ? .noAdFramework : chosen
    }

    /// Reads the appInfo value `nol_sdkFlavor` (`global`, `noAdFramework`, `noID`; any case).
    public init?(appInfoValue: String) {
        guard let match = Self.allCases.first(where: { $0.rawValue.lowercased() == appInfoValue.lowercased() })
        else { return nil }
        self = match
    }
}
