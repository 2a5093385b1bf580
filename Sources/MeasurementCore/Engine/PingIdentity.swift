/// The identifier fields of one ping.
package struct PingIdentity: Sendable, Equatable {
    package var optedOut: Bool
    package var deviceID = ""
    package var vendorID = ""
    package var firstPartyID = ""
    package var firstPartyCreated = ""
    package var firstPartyAccessed = ""

    package init(
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
