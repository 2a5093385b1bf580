import Foundation
import MeterWire

/// Fetches the census config (`GET <base>/cgi-bin/cfg`, docs/protocol.md §1) at start-up,
/// retrying with backoff on the instance's clock while the census is unreachable; measurement goes
/// on with the defaults meanwhile.
struct ConfigFetcher: Sendable {
    let appInfo: AppInfo
    let sdkVersion: String
    let transport: any PingTransport
    let clock: any MeterClock
    let retryPolicy: RetryPolicy

    /// The hello-ping URL (Nielsen's public documentation of the SDK's requests, trimmed to what the census reads).
    var url: URL {
        let values: [ConfigRequestField: String] = [
            .configVersion: "1", .appID: appInfo.appID, .appVersion: appInfo.appVersion, .appName: appInfo.appName,
            .sdkVersion: sdkVersion, .sfcode: appInfo.sfcode, .format: "json",
        ]
        let query = WireEncoding.query(ConfigRequestField.allCases.map { ($0.rawValue, values[$0] ?? "") })
        // Every byte of the query is unreserved or an escape, and the base URL parsed at start.
        return URL(string: WireRoute.url(WireRoute.config, base: appInfo.collectorURL.absoluteString) + "?" + query)!
    }

    /// Returns the config once the census gives a valid one, or nil if the task is cancelled.
    /// `firstProblem` hears the first failure; `retrying` hears when each retry is due.
    func fetch(
        firstProblem: (MeterEventCode, String) -> Void, retrying: (MeterInstant) -> Void
    ) async -> ConfigAnswer? {
        var attempt = 0
        while !Task.isCancelled {
            attempt += 1
            let problem: (MeterEventCode, String)
            switch await transport.send(TransportRequest(url: url)) {
            case .response(let status, _, let body) where (200..<300).contains(status):
                switch ConfigAnswer.decode(body) {
                case .success(let config): return config
                case .failure(let failure): problem = (.failedParseConfig, failure.reason)
                }
            case .response(let status, _, _):
                problem = (.failedReceiveConfig, "the census answered the config request with HTTP \(status)")
            case .failure(let reason), .requestNotCreated(let reason), .exchangeFailed(let reason):
                // The config request's failures are all error 4 (decisions.md E11a).
                problem = (.failedReceiveConfig, "the census is unreachable for config (\(reason))")
            }
            if attempt == 1 {
                firstProblem(problem.0, problem.1 + "; measuring with defaults and retrying")
            }
            var generator = SystemRandomBits()
            let deadline = clock.now() + retryPolicy.backoff(failures: attempt, random: .random(in: 0..<1, using: &generator))
            retrying(deadline)
            try? await clock.sleep(until: deadline)
        }
        return nil
    }
}
