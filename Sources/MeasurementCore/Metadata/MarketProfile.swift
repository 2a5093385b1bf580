/// What differs between measurement markets, keyed by the `sfcode` in appInfo.
///
/// One entry per market: adding a market is adding one value to ``MarketProfile/all``.
/// The limits come from the market pages (see docs/decisions.md for the contradictions); the
/// privacy fields from docs/privacy.md.
public struct MarketProfile: Sendable, Equatable {
    /// The market's name, for logs and reports.
    public let name: String
    /// The sfcodes that select this market.
    public let sfcodes: Set<String>
    /// Longest accepted `assetid`.
    public let assetIDMaxLength: Int
    /// If set, the only characters an `assetid` may contain.
    public let assetIDCharacters: String?
    /// Longest accepted `program`.
    public let programMaxLength: Int
    /// Longest accepted `title`.
    public let titleMaxLength: Int
    /// Whether a backslash is forbidden in `title` (Poland: third-party processing).
    public let titleForbidsBackslash: Bool
    /// Whether the market's guide requires `appname` and `appversion` in appInfo: when missing they
    /// are detected anyway and reported as 1005/1006 (Poland, DTVR and the simplified API detect them).
    public let requiresAppNameAndVersion: Bool
    /// The flavour the market requires whatever the app asks for (Ireland: no identifiers).
    public var requiredFlavor: SDKFlavor? = nil
    /// Country and language of the market's opt-out page.
    public var privacyCountry = "us", privacyLanguage = "en"
    /// The `adloadtype` the market's guide asks for (Italy: "has to be 2"); another is reported, not refused.
    public var requiredAdLoadType: AdLoadType? = nil
    /// The shape of the only static section the market measures (Italy: the home page,
    /// `Home_<EntityName>_iOS`); another is reported, not refused.
    public var staticSectionPattern: SectionPattern? = nil
    /// Whether the channel name defaults to the app name (Poland: "the SDK will pass the application
    /// name automatically") rather than `defaultChannelName`.
    public var channelNameDefaultsToAppName = false

    /// Letters, digits, `_` and `-`: the Polish `assetid` alphabet.
    static let polishAssetIDCharacters =
        "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_-"

    /// Every market this build knows, first match wins; ``generic`` applies to any other sfcode.
    public static let all: [MarketProfile] = [
        MarketProfile(
            name: "Italy", sfcodes: ["it"], assetIDMaxLength: 32, assetIDCharacters: nil,
            programMaxLength: 100, titleMaxLength: 100, titleForbidsBackslash: false,
            requiresAppNameAndVersion: true, privacyCountry: "it", privacyLanguage: "it", requiredAdLoadType: .dynamic,
            staticSectionPattern: SectionPattern(prefix: "Home_", suffix: "_iOS")),
        MarketProfile(
            name: "Ireland", sfcodes: ["ire"], assetIDMaxLength: 32, assetIDCharacters: nil,
            programMaxLength: 100, titleMaxLength: 100, titleForbidsBackslash: false,
            requiresAppNameAndVersion: true, requiredFlavor: .noID, privacyCountry: "ie", privacyLanguage: "en"),
        MarketProfile(
            name: "Poland", sfcodes: ["pl", "pl-cert"], assetIDMaxLength: 64,
            assetIDCharacters: polishAssetIDCharacters,
            programMaxLength: 254, titleMaxLength: 254, titleForbidsBackslash: true,
            requiresAppNameAndVersion: false, privacyCountry: "pl", privacyLanguage: "pl",
            channelNameDefaultsToAppName: true),
    ]

    /// The profile for any sfcode without an entry of its own (us, dcr, dcr-cert, cert, uat-cert, …).
    public static let generic = MarketProfile(
        name: "Generic", sfcodes: [], assetIDMaxLength: 100, assetIDCharacters: nil,
        programMaxLength: 100, titleMaxLength: 100, titleForbidsBackslash: false,
        requiresAppNameAndVersion: false)

    /// The sfcode of an appInfo without one.
    public static let defaultSFCode = "dcr"

    /// The profile for `sfcode` (case-insensitive).
    public static func forSFCode(_ sfcode: String) -> MarketProfile {
        let code = sfcode.asciiLowercased
        return all.first { $0.sfcodes.contains(code) } ?? generic
    }
}

/// A static section's expected shape: a prefix and a suffix around a name.
public struct SectionPattern: Sendable, Equatable {
    /// What the section starts with.
    public var prefix: String
    /// What it ends with.
    public var suffix: String

    /// Whether `section` has the shape, with a non-empty name between.
    public func matches(_ section: String) -> Bool {
        section.count > prefix.count + suffix.count && section.hasPrefix(prefix) && section.hasSuffix(suffix)
    }

    /// An example, for messages.
    public var example: String { prefix + "EntityName" + suffix }
}
