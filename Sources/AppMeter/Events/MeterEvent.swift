public import Foundation

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

    /// The documented dictionary, with both key sets the guides show: `eventCode` (Int),
    /// `eventDescription` (String) and `timestamp` (Date) of the `lastEventDict` page, and
    /// `EventStatus` (Int), `Event Description` (String) and `TimeStamp` (String,
    /// `2015-07-23 14:51:06 +0000`) of the API reference's sample event.
    public var dictionary: [String: any Sendable] {
        ["eventCode": code.rawValue, "eventDescription": description, "timestamp": timestamp,
         "EventStatus": code.rawValue, "Event Description": description, "TimeStamp": Self.stamp(timestamp)]
    }

    /// `yyyy-MM-dd HH:mm:ss +0000`, in UTC.
    static func stamp(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        return String(format: "%04d-%02d-%02d %02d:%02d:%02d +0000", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0,
                      parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0)
    }
}
