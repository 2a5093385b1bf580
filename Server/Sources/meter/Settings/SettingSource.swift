/// Where a `meter serve` setting's value came from, so that a refusal names the place to fix.
enum SettingSource: Equatable {
    /// The command line: `--port`.
    case flag(String)
    /// An environment variable: `METER_PORT`.
    case environment(String)
    /// A key of the config file: `port` in `/etc/meter.json`.
    case file(key: String, path: String)
    /// Nothing set it.
    case standard

    /// The source and value as an operator would find them: `--port 99999`,
    /// `METER_PORT=99999 (environment)`, `"port": 99999 in /etc/meter.json`; a secret's value
    /// (a token, a database URL with its password) is left out.
    func naming(_ value: String, secret: Bool) -> String {
        switch self {
        case .flag(let name): secret ? name : "\(name) \(value)"
        case .environment(let name): secret ? "\(name) (environment)" : "\(name)=\(value) (environment)"
        case .file(let key, let path): secret ? "\"\(key)\" in \(path)" : "\"\(key)\": \(value) in \(path)"
        case .standard: value
        }
    }

    /// The source alone: `--tls-cert`, `METER_TLS_CERT (environment)`.
    var name: String {
        switch self {
        case .flag(let name): name
        case .environment(let name): "\(name) (environment)"
        case .file(let key, let path): "\"\(key)\" in \(path)"
        case .standard: "the default"
        }
    }
}
