public import Foundation

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
    /// `enableFpid` (default true): false wipes the first-party id and sends none.
    public let firstPartyIDEnabled: Bool
    /// Every appInfo key, as given (later products read their own keys from here).
    public let values: [String: String]

    /// Problems found in appInfo that did not stop measurement (a value fell back to its
    /// default, or a key the market's guide requires was detected instead). The instance reports
    /// each to its delegate and `lastErrorDict` as soon as it exists.
    public let issues: [AppInfoIssue]

    /// The player view's tag for viewability: `containerId` (the samples' spelling) or
    /// `containerID` (the DTVR guide's appInfo table), whichever is given.
    public var containerTag: String? {
        values["containerId"].flatMap { $0.isEmpty ? nil : $0 } ?? values["containerID"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The sfcode used when appInfo has none (the API reference calls it optional).
    public static let defaultSFCode = MarketProfile.defaultSFCode

    /// The app's name as the platform knows it: the bundle's display name or name, else the
    /// process name (Linux, command-line tools).
    public static var detectedAppName: String {
        let info = Bundle.main.infoDictionary
        return (info?["CFBundleDisplayName"] as? String).flatMap { $0.isEmpty ? nil : $0 }
            ?? (info?["CFBundleName"] as? String).flatMap { $0.isEmpty ? nil : $0 }
            ?? ProcessInfo.processInfo.processName
    }

    /// The app's version as the platform knows it: the bundle's short version, else "0".
    public static var detectedAppVersion: String {
        (Bundle.main.infoDictionary?["CFBundleShortVersionString"] as? String).flatMap { $0.isEmpty ? nil : $0 } ?? "0"
    }

    /// Reads appInfo values. Only an unusable `appid` fails: any other problem becomes an
    /// ``issues`` entry and the value its default, so that a typo never silently turns
    /// measurement off. A missing `appname`/`appversion` is detected (`fallbackAppName`,
    /// `fallbackAppVersion`) and, where the market's guide requires it, reported as 1005/1006.
    /// `inputIssues` (problems the caller found reading the input) come first in ``issues``.
    public static func parse(
        _ values: [String: String],
        fallbackAppName: String = AppInfo.detectedAppName,
        fallbackAppVersion: String = AppInfo.detectedAppVersion,
        inputIssues: [AppInfoIssue] = []
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
        var issues = inputIssues
        let sfcode = values["sfcode"].flatMap { $0.isEmpty ? nil : $0.lowercased() } ?? defaultSFCode
        let market = MarketProfile.forSFCode(sfcode)
        func detected(_ key: String, fallback: String, code: MeterEventCode) -> String {
            if let value = values[key], !value.isEmpty { return value }
            if market.requiresAppNameAndVersion {
                issues.append(AppInfoIssue(
                    code: code, message: "appInfo has no '\(key)', which \(market.name) requires; measuring as \"\(fallback)\""))
            }
            return fallback
        }
        let appName = detected("appname", fallback: fallbackAppName, code: .emptyAppName)
        let appVersion = detected("appversion", fallback: fallbackAppVersion, code: .emptyAppVersion)
        var debugLevel: DebugLevel?
        if let raw = values["nol_devDebug"] {
            debugLevel = DebugLevel(appInfoValue: raw)
            if debugLevel == nil {
                issues.append(AppInfoIssue(
                    code: .emptyValue,
                    message: "appInfo 'nol_devDebug' \"\(raw)\" is not one of INFO, WARN, ERROR, DEBUG; logging stays off"))
            }
        }
        let defaultCollector = URL(string: "https://secure-\(sfcode).imrworldwide.com")
            ?? URL(string: "https://secure-\(defaultSFCode).imrworldwide.com")!
        var collectorURL = defaultCollector
        if let raw = values["nol_collectorURL"] {
            if let url = URL(string: raw), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
               url.host != nil {
                collectorURL = url
            } else {
                issues.append(AppInfoIssue(
                    code: .emptyValue,
                    message: "appInfo 'nol_collectorURL' \"\(raw)\" is not an http(s) URL; sending to \(defaultCollector.absoluteString)"))
            }
        }
        var flavor: SDKFlavor?
        if let raw = values["nol_sdkFlavor"] {
            flavor = SDKFlavor(appInfoValue: raw)
            if flavor == nil {
                issues.append(AppInfoIssue(
                    code: .emptyValue,
                    message: "appInfo 'nol_sdkFlavor' \"\(raw)\" is not global, noAdFramework or noID; using the build's flavour"))
            }
        }
        var fpidEnabled = true
        if let raw = values["enableFpid"] {
            switch raw.lowercased() {
            case "true": fpidEnabled = true
            case "false": fpidEnabled = false
            default:
                issues.append(AppInfoIssue(
                    code: .emptyValue, message: "appInfo 'enableFpid' \"\(raw)\" is not \"true\" or \"false\"; the first-party id stays on"))
            }
        }
        return .success(AppInfo(
            appID: appID, appName: appName, appVersion: appVersion, sfcode: sfcode,
            debugLevel: debugLevel, collectorURL: collectorURL, market: market, flavor: flavor,
            storageFolder: values["nol_storageDir"].flatMap { $0.isEmpty ? nil : $0 }, firstPartyIDEnabled: fpidEnabled,
            values: values, issues: issues))
    }

    /// `P` or `T`, then 8-4-4-4-12 hexadecimal digits (``MeasuredApp/isValidAppID(_:)``).
    package static func isValidAppID(_ id: String) -> Bool { MeasuredApp.isValidAppID(id) }
}

/// A problem in appInfo that did not stop measurement.
public struct AppInfoIssue: Sendable, Equatable, CustomStringConvertible {
    /// The documented error code (1005, 1006, or 1004 for a value that fell back to its default).
    public let code: MeterEventCode
    /// What is wrong and what the SDK does instead.
    public let message: String

    /// Creates an issue.
    public init(code: MeterEventCode, message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(message) (error \(code.rawValue))" }
}

/// Why appInfo was rejected: its `appid` cannot be used.
public struct AppInfoError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The documented error code.
    public let code: MeterEventCode
    /// What is wrong, naming the key.
    public let message: String

    /// A readable reason.
    public var description: String { "\(message) (error \(code.rawValue))" }
}
