public import Foundation

/// The JSON form: `{"appid":…,"enabled":…,"durationPingInterval":…}`.
extension ConfigAnswer: Codable {
    private enum CodingKeys: String, CodingKey { case appid, enabled, durationPingInterval }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            appid: try container.decodeIfPresent(String.self, forKey: .appid),
            enabled: try container.decode(Bool.self, forKey: .enabled),
            durationPingInterval: try container.decode(Int64.self, forKey: .durationPingInterval))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(appid, forKey: .appid)
        try container.encode(enabled, forKey: .enabled)
        try container.encode(durationPingInterval, forKey: .durationPingInterval)
    }
}

extension ConfigAnswer {
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
