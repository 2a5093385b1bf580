public import Logging

/// The `nol_devDebug` levels. Logging is off unless appInfo sets one.
public enum DebugLevel: String, Sendable, CaseIterable {
    /// API calls and the data passed.
    case info = "INFO"
    /// Possible integration or configuration errors.
    case warn = "WARN"
    /// Integration errors and non-recoverable SDK issues.
    case error = "ERROR"
    /// Everything, for developers debugging complex issues.
    case debug = "DEBUG"

    /// Parses the documented values, also accepting their first letters (`I`, `W`, `E`, `D`)
    /// and any letter case.
    public init?(appInfoValue: String) {
        let value = appInfoValue.uppercased()
        guard let match = Self.allCases.first(where: { $0.rawValue == value || $0.rawValue.prefix(1) == value })
        else { return nil }
        self = match
    }

    /// The swift-log level that shows this level and everything more severe.
    public var logLevel: Logger.Level {
        switch self {
        case .info: .info
        case .warn: .warning
        case .error: .error
        case .debug: .debug
        }
    }
}
