import Foundation

/// One event or error, as delivered to the delegate and kept as the last event / last error.
public struct MeterEvent: Sendable, Equatable {
    /// The documented code.
    public let code: MeterEventCode
    /// A human-readable description that says what happened and, for errors, what to do.
    public let description: String
    /// When it happened (the time of the call that caused it).
    public let timestamp: Date

    /// Creates an event.
    public init(code: MeterEventCode, description: String, timestamp: Date) {
        self.code = code
        self.description = description
        self.timestamp = timestamp
    }

    /// The documented dictionary shape: `eventCode` (Int), `eventDescription` (String),
    /// `timestamp` (Date).
    public var dictionary: [String: any Sendable] {
        ["eventCode": code.rawValue, "eventDescription": description, "timestamp": timestamp]
    }
}
