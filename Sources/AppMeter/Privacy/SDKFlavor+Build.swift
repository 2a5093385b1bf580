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
