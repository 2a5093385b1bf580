import Foundation

/// The validated appInfo passed to `NielsenAppApi(appInfo:delegate:)`.
public struct AppInfo: Sendable, Equatable {
    /// The Nielsen application id: a GUID prefixed with `P` (production) or `T` (test).
    public let appID: String
    /// The application name (`appname`).
    public let appName: String
    /// The application version (`appversion`).
    public let appVersion: String
    /// The collection facility code (`sfcode`); `dcr` when absent.
    public let sfcode: String
    /// The `nol_devDebug` level, or nil when logging is off.
    public let debugLevel: DebugLevel?
    /// Where pings and the config request go: `nol_collectorURL`, or `https://secure-<sfcode>.imrworldwide.com`.
    public let collectorURL: URL
    /// The market rules selected by `sfcode`.
    public let market: MarketProfile
    /// The flavour asked for with `nol_sdkFlavor`, if any.
    public let flavor: SDKFlavor?
    /// The folder set with `nol_storageDir`, if any.
    public let storageFolder: String?
    /// Every appInfo key, as given (later products read their own keys from here).
    public let values: [String: String]

    /// The sfcode used when appInfo has none (the API reference calls it optional).
    public static let defaultSFCode = "dcr"

    /// Validates appInfo values. `fallbackAppName`/`fallbackAppVersion` are used where the market
    /// lets the SDK detect them (Poland).
    public static func parse(
        _ values: [String: String],
        fallbackAppName: String = ProcessInfo.processInfo.processName,
        fallbackAppVersion: String = "0"
    ) -> Result<AppInfo, AppInfoError> {
        let appID = values["appid", default: ""].trimmingCharacters(in: .whitespaces)
        guard !appID.isEmpty else {
            return .failure(AppInfoError(code: .emptyAppID, message: "appInfo has no 'appid'"))
        }
        guard isValidAppID(appID) else {
            return .failure(AppInfoError(
                code: .emptyAppID,
                message: "appInfo 'appid' \"\(appID)\" is not a GUID prefixed with P or T (PXXXXXXXX-XXXX-XXXX-XXXX-XXXXXXXXXXXX)"))
        }
        let sfcode = values["sfcode"].flatMap { $0.isEmpty ? nil : $0.lowercased() } ?? defaultSFCode
        let market = MarketProfile.forSFCode(sfcode)
        var appName = values["appname", default: ""]
        var appVersion = values["appversion", default: ""]
        if market.requiresAppNameAndVersion {
            if appName.isEmpty {
                return .failure(AppInfoError(code: .emptyAppName, message: "appInfo has no 'appname'"))
            }
            if appVersion.isEmpty {
                return .failure(AppInfoError(code: .emptyAppVersion, message: "appInfo has no 'appversion'"))
            }
        } else {
            if appName.isEmpty { appName = fallbackAppName }
            if appVersion.isEmpty { appVersion = fallbackAppVersion }
        }
        var debugLevel: DebugLevel?
        if let raw = values["nol_devDebug"] {
            guard let level = DebugLevel(appInfoValue: raw) else {
                return .failure(AppInfoError(
                    code: .emptyValue,
                    message: "appInfo 'nol_devDebug' \"\(raw)\" is not one of INFO, WARN, ERROR, DEBUG"))
            }
            debugLevel = level
        }
        let collectorURL: URL
        if let raw = values["nol_collectorURL"] {
            guard let url = URL(string: raw), let scheme = url.scheme?.lowercased(),
                  scheme == "http" || scheme == "https", url.host != nil
            else {
                return .failure(AppInfoError(
                    code: .emptyValue, message: "appInfo 'nol_collectorURL' \"\(raw)\" is not an http(s) URL"))
            }
            collectorURL = url
        } else {
            collectorURL = URL(string: "https://secure-\(sfcode).imrworldwide.com")!
        }
        var flavor: SDKFlavor?
        if let raw = values["nol_sdkFlavor"] {
            guard let parsed = SDKFlavor(appInfoValue: raw) else {
                return .failure(AppInfoError(
                    code: .emptyValue, message: "appInfo 'nol_sdkFlavor' \"\(raw)\" is not global, noAdFramework or noID"))
            }
            flavor = parsed
        }
        if let raw = values["enableFpid"], !["true", "false"].contains(raw.lowercased()) {
            return .failure(AppInfoError(code: .emptyValue, message: "appInfo 'enableFpid' \"\(raw)\" is not \"true\" or \"false\""))
        }
        return .success(AppInfo(
            appID: appID, appName: appName, appVersion: appVersion, sfcode: sfcode,
            debugLevel: debugLevel, collectorURL: collectorURL, market: market, flavor: flavor,
            storageFolder: values["nol_storageDir"].flatMap { $0.isEmpty ? nil : $0 }, values: values))
    }

    /// `P` or `T`, then 8-4-4-4-12 hexadecimal digits.
    static func isValidAppID(_ id: String) -> Bool {
        let chars = Array(id.utf8)
        guard chars.count == 37, chars[0] == UInt8(ascii: "P") || chars[0] == UInt8(ascii: "T") else { return false }
        let dashes: Set<Int> = [9, 14, 19, 24]
        for (index, char) in chars.enumerated().dropFirst() {
            if dashes.contains(index) {
                guard char == UInt8(ascii: "-") else { return false }
            } else {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(char)
                    || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(char)
                    || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(char)
                else { return false }
            }
        }
        return true
    }
}

/// Why appInfo was rejected.
public struct AppInfoError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The documented error code.
    public let code: MeterEventCode
    /// What is wrong, naming the key.
    public let message: String

    /// A readable reason.
    public var description: String { "\(message) (error \(code.rawValue))" }
}
