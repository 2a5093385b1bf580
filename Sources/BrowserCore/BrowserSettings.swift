import MeasurementCore
import MeterContract

/// What a page's instance is created with: the guide's `nlsQ(apid, instanceName, globals)`, the
/// census's configuration file (`/conf/<apid>.js`) and what the JavaScript layer keeps for the
/// browser. Read from a query (`apid=…&name=…`) that the layer writes.
package struct BrowserSettings {
    /// The apid (`P`/`T` + GUID).
    package var apid: String
    /// The instance name given to `nlsQ`.
    package var instanceName: String
    /// The market: the census's for the apid (its configuration file's `sfcode`), else the page's
    /// `nol_sfcode`, else `dcr` (decisions B11a).
    package var sfcode: String = MarketProfile.defaultSFCode
    /// The page's `nol_sfcode` when the census's market replaced a different one (decisions B11a).
    package var overriddenPageSFCode: String?
    /// The browser's id, kept in the page's storage (sent as the device id).
    package var browserID: String = ""
    /// The census's `durationPingInterval`.
    package var durationPingInterval: Int64 = ConfigAnswer.defaultInterval
    /// False when the census turned measurement off for the apid.
    package var enabled = true
    /// `nol_sdkDebug`: log each call and ping.
    package var debug = false
    /// The user opted out (the census's opt-out cookie, as the configuration reports it).
    package var optedOut = false
    /// The seed of the page's ids.
    package var seed: (UInt64, UInt64) = (1, 2)
    /// The length of `<census>/cgi-bin/gn?`, so that whole URLs stay within the contract's 2,048 bytes.
    package var urlPrefixLength = 0

    /// The platform's prefix in `c16`.
    package static let platformPrefix = "aw"

    /// Reads `query`, or says what is wrong.
    package static func parse(_ query: String) -> Result<BrowserSettings, BrowserInputError> {
        guard case .success(let pairs) = PingQuery.parameters(Substring(query)) else {
            return .failure(BrowserInputError(code: .failedParseStartInfo, message: "the instance's settings could not be read"))
        }
        var values: [String: String] = [:]
        for pair in pairs where values[pair.name] == nil { values[pair.name] = pair.value }
        let apid = values["apid"] ?? ""
        guard MeasuredApp.isValidAppID(apid) else {
            return .failure(BrowserInputError(
                code: .emptyAppID,
                message: "nlsQ: apid \"\(apid)\" is not a GUID prefixed with P or T (PXXXXXXXX-XXXX-XXXX-XXXX-XXXXXXXXXXXX)"))
        }
        var settings = BrowserSettings(apid: apid, instanceName: values["name"] ?? "")
        let page = (values["sfcode"] ?? "").asciiLowercased, census = (values["market"] ?? "").asciiLowercased
        if !census.isEmpty {
            settings.sfcode = census
            if !page.isEmpty && page != census { settings.overriddenPageSFCode = page }
        } else if !page.isEmpty {
            settings.sfcode = page
        }
        settings.browserID = values["nuid"] ?? ""
        if let interval = values["interval"].flatMap({ Int64($0) }), ConfigAnswer.intervalRange.contains(interval) {
            settings.durationPingInterval = interval
        }
        settings.enabled = values["enabled"] != "0"
        settings.debug = !(values["debug"] ?? "").isEmpty
        settings.optedOut = values["optout"] == "1"
        settings.seed = (UInt64(values["seed1"] ?? "") ?? 1, UInt64(values["seed2"] ?? "") ?? 2)
        settings.urlPrefixLength = Int(values["prefix"] ?? "").map { min(max($0, 0), WireLimits.sdkMaxURLBytes) } ?? 0
        return .success(settings)
    }
}
