import Foundation

/// The config handshake: what the SDK asks (`GET <base>/cgi-bin/cfg?…`) and what the census
/// answers (JSON).
public struct ConfigAnswer: Sendable, Equatable, Codable {
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

    /// Reads and checks an answer body; the failure says what is wrong.
    public static func decode(_ body: Data) -> Result<ConfigAnswer, WireFormatError> {
        guard let answer = try? JSONDecoder().decode(ConfigAnswer.self, from: body) else {
            return .failure(WireFormatError("the census config is not JSON with 'enabled' and 'durationPingInterval'"))
        }
        guard intervalRange.contains(answer.durationPingInterval) else {
            return .failure(WireFormatError(
                "the census config durationPingInterval \(answer.durationPingInterval) is outside \(intervalRange.lowerBound)…\(intervalRange.upperBound)"))
        }
        return .success(answer)
    }

    /// The JSON body.
    public func encoded() -> Data {
        (try? JSONEncoder().encode(self)) ?? Data()
    }
}

/// The query parameters of the config request, in order.
public enum ConfigRequestField: String, Sendable, CaseIterable {
    /// Config format version (`1`).
    case configVersion = "cfgv"
    /// The appid.
    case appID = "apid"
    /// The app version.
    case appVersion = "apv"
    /// The app name.
    case appName = "apn"
    /// The SDK version.
    case sdkVersion = "sdkv"
    /// The sfcode.
    case sfcode = "sfcode"
    /// The answer format (`json`).
    case format = "fmt"

    /// The longest appid the census accepts in a config request.
    public static let maxAppIDLength = 64
}

/// Something on the wire that does not follow the contract.
public struct WireFormatError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A sentence naming what is wrong.
    public let reason: String

    /// Creates an error.
    public init(_ reason: String) { self.reason = reason }

    public var description: String { reason }
}
