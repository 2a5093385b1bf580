/// What the core knows of the app it measures: the part of appInfo that pings carry and the
/// market whose rules apply. The SDK reads appInfo (and the bundle) into it once, at start.
public struct MeasuredApp: Sendable, Equatable {
    /// `appid`.
    package var appID: String
    /// `appname`, or the bundle's name.
    package var appName: String
    /// `appversion`, or the bundle's version.
    package var appVersion: String
    /// The market whose rules apply (from `sfcode`).
    public var market: MarketProfile

    /// Creates the app's facts.
    public init(appID: String, appName: String, appVersion: String, market: MarketProfile) {
        self.appID = appID
        self.appName = appName
        self.appVersion = appVersion
        self.market = market
    }

    /// `P` or `T`, then 8-4-4-4-12 hexadecimal digits.
    public static func isValidAppID(_ id: String) -> Bool {
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
