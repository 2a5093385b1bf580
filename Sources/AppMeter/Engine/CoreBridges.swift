package import Logging

// What the SDK hands the Foundation-free core (MeasurementCore) in the core's own types.

extension MeterLogLevel {
    /// The core's level for swift-log's.
    package init(_ level: Logger.Level) {
        switch level {
        case .trace: self = .trace
        case .debug: self = .debug
        case .info: self = .info
        case .notice: self = .notice
        case .warning: self = .warning
        case .error: self = .error
        case .critical: self = .critical
        }
    }

    /// swift-log's level for the core's.
    package var loggerLevel: Logger.Level {
        switch self {
        case .trace: .trace
        case .debug: .debug
        case .info: .info
        case .notice: .notice
        case .warning: .warning
        case .error: .error
        case .critical: .critical
        }
    }
}

extension CoreIdentifiers {
    /// The core's generators, drawing from `source`.
    package init(_ source: any IdentifierSource) {
        self.init(newSessionID: { source.newSessionID() }, newPingID: { source.newPingID() })
    }
}

extension AppInfo {
    /// What the core needs of appInfo.
    package var measuredApp: MeasuredApp {
        MeasuredApp(appID: appID, appName: appName, appVersion: appVersion, market: market)
    }
}
