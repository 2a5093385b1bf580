import Foundation

/// The census's answer to the config handshake (`GET <base>/cgi-bin/cfg`, docs/protocol.md).
public struct CensusConfig: Sendable, Equatable, Decodable {
    /// False: the census turned measurement off for this appid (server-side kill switch).
    public var enabled: Bool
    /// Send a duration ping at least every this many credited seconds (1…3600).
    public var durationPingInterval: Int64

    /// Creates a config.
    public init(enabled: Bool, durationPingInterval: Int64) {
        self.enabled = enabled
        self.durationPingInterval = durationPingInterval
    }

    /// Decodes and checks a config body; nil with a reason when it is not a valid config.
    static func parse(_ body: Data) -> Result<CensusConfig, ConfigProblem> {
        guard let config = try? JSONDecoder().decode(CensusConfig.self, from: body) else {
            return .failure(ConfigProblem(reason: "the census config is not JSON with 'enabled' and 'durationPingInterval'"))
        }
        guard (1...3600).contains(config.durationPingInterval) else {
            return .failure(ConfigProblem(reason: "the census config durationPingInterval \(config.durationPingInterval) is outside 1…3600"))
        }
        return .success(config)
    }
}

/// Why a config body was not accepted.
struct ConfigProblem: Error {
    let reason: String
}

/// Fetches the census config at start-up, retrying with backoff while the census is unreachable;
/// measurement goes on with the defaults meanwhile.
struct ConfigFetcher: Sendable {
    let appInfo: AppInfo
    let sdkVersion: String
    let environment: MeterEnvironment
    let reporter: EventReporter

    /// The hello-ping URL (public-docs-facts §8, trimmed to what the census reads).
    var url: URL {
        var components = URLComponents(url: appInfo.collectorURL, resolvingAgainstBaseURL: false)!
        components.path = components.path.trimmingSuffix("/") + "/cgi-bin/cfg"
        components.queryItems = [
            URLQueryItem(name: "cfgv", value: "1"),
            URLQueryItem(name: "apid", value: appInfo.appID),
            URLQueryItem(name: "apv", value: appInfo.appVersion),
            URLQueryItem(name: "apn", value: appInfo.appName),
            URLQueryItem(name: "sdkv", value: sdkVersion),
            URLQueryItem(name: "sfcode", value: appInfo.sfcode),
            URLQueryItem(name: "fmt", value: "json"),
        ]
        return components.url!
    }

    /// Returns the config once the census gives a valid one, or nil if the task is cancelled.
    func fetch() async -> CensusConfig? {
        var attempt = 0
        while !Task.isCancelled {
            attempt += 1
            let problem: (MeterEventCode, String)
            switch await environment.transport.send(TransportRequest(url: url)) {
            case .response(let status, _, let body) where (200..<300).contains(status):
                switch CensusConfig.parse(body) {
                case .success(let config): return config
                case .failure(let failure): problem = (.failedParseConfig, failure.reason)
                }
            case .response(let status, _, _):
                problem = (.failedReceiveConfig, "the census answered the config request with HTTP \(status)")
            case .failure(let reason):
                problem = (.failedReceiveConfig, "the census is unreachable for config (\(reason))")
            }
            if attempt == 1 {
                reporter.report(problem.0, problem.1 + "; measuring with defaults and retrying", at: environment.clock.now())
            }
            await environment.sleep(environment.retryPolicy.backoff(failures: attempt, random: .random(in: 0..<1)))
        }
        return nil
    }
}
