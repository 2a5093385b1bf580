/// The config handshake: what the SDK asks (`GET <base>/cgi-bin/cfg?…`) and what the census
/// answers (JSON).
public struct ConfigAnswer: Sendable, Equatable {
    /// The appid asked about (the census echoes it; the SDK does not need it).
    public var appid: String?
    /// False: the census turned measurement off for this appid (the server-side kill switch).
    public var enabled: Bool
    /// The SDK sends a duration ping at the latest after this many credited seconds of one asset.
    public var durationPingInterval: Int64

    /// The intervals a census may set.
    public static let intervalRange: ClosedRange<Int64> = 1...3600
    /// What an app without settings of its own gets.
    public static let defaultInterval: Int64 = 60

    /// Creates an answer.
    public init(appid: String? = nil, enabled: Bool, durationPingInterval: Int64) {
        self.appid = appid
        self.enabled = enabled
        self.durationPingInterval = durationPingInterval
    }
}
