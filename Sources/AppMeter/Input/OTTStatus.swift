import Foundation

/// What `updateOTT` says (dcr-ireland-video-ios-sdk.txt "AirPlay", ios-simplified-api.txt
/// `ottData`): whether the stream now plays on a connected OTT device, and how it is connected.
/// Pings carry it as `c71=ottflg,<0|1>` and `c72=otttyp,<type>`; a change splits the credit.
public struct OTTStatus: Sendable, Equatable {
    /// `ottType`: how the device is connected.
    public enum Connection: String, Sendable, CaseIterable {
        case airplay
        case mirroring
        case casting
        case other
    }

    /// `ottStatus` 1: connected.
    public var isConnected: Bool
    /// `ottType`, when connected.
    public var connection: Connection?
    /// `ottDevice` (`airplay`, `appleTV`, `chromecast`, `other`…): kept, not sent.
    public var device: String
    /// `ottDeviceModel`: kept, not sent.
    public var deviceModel: String
    /// `ottDeviceID`: kept, not sent (it identifies the user's TV).
    public var deviceID: String

    /// Creates a status.
    public init(isConnected: Bool, connection: Connection? = nil, device: String = "", deviceModel: String = "", deviceID: String = "") {
        self.isConnected = isConnected
        self.connection = isConnected ? connection : nil
        self.device = device
        self.deviceModel = deviceModel
        self.deviceID = deviceID
    }

    /// No OTT device: what an instance starts with.
    public static let disconnected = OTTStatus(isConnected: false)

    /// Reads `updateOTT`'s dictionary. Nil when `ottStatus` is missing or not 0/1 (the call is
    /// ignored); an unknown `ottType` is reported and read as `other`.
    package static func parse(_ values: [String: String]) -> (status: OTTStatus?, issues: [MetadataIssue]) {
        let connected: Bool
        switch values["ottStatus"]?.trimmingCharacters(in: .whitespaces).lowercased() {
        case "1", "true": connected = true
        case "0", "false": connected = false
        case nil, "":
            return (nil, [MetadataIssue(key: "ottStatus", problem: "is missing; expected \"0\" or \"1\"; call ignored", code: .failedParseMetadata)])
        case let other?:
            return (nil, [MetadataIssue(key: "ottStatus", problem: "is \"\(other)\", not \"0\" or \"1\"; call ignored", code: .failedParseMetadata)])
        }
        var issues: [MetadataIssue] = []
        var connection: Connection?
        if connected {
            let raw = values["ottType", default: ""]
            connection = Connection(rawValue: raw.lowercased())
            if connection == nil {
                connection = .other
                let known = Connection.allCases.map(\.rawValue).joined(separator: ", ")
                issues.append(MetadataIssue(
                    key: "ottType", problem: raw.isEmpty ? "is missing; sent as other" : "is \"\(raw)\", not one of \(known); sent as other",
                    code: .failedParseMetadata))
            }
        }
        let status = OTTStatus(
            isConnected: connected, connection: connection, device: values["ottDevice", default: ""],
            deviceModel: values["ottDeviceModel", default: ""], deviceID: values["ottDeviceID", default: ""])
        return (status, issues)
    }
}
