/// The identifier fields of one ping.
public struct PingIdentity: Sendable, Equatable {
    package var optedOut: Bool
    package var deviceID = ""
    package var vendorID = ""
    package var firstPartyID = ""
    package var firstPartyCreated = ""
    package var firstPartyAccessed = ""

    /// Creates the fields; an opted-out ping carries every identifier empty.
    public init(
        optedOut: Bool, deviceID: String = "", vendorID: String = "", firstPartyID: String = "",
        firstPartyCreated: String = "", firstPartyAccessed: String = ""
    ) {
        self.optedOut = optedOut
        self.deviceID = deviceID
        self.vendorID = vendorID
        self.firstPartyID = firstPartyID
        self.firstPartyCreated = firstPartyCreated
        self.firstPartyAccessed = firstPartyAccessed
    }
}
