/// What `updateOTT` says (the Ireland guide "AirPlay", the simplified guide
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
}
