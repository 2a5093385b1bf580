import MeterContract

/// The identifier fields of one ping.
public struct PingIdentity: Sendable, Equatable {
    package var optedOut: Bool
    package var deviceID = "" {
        didSet { (deviceIDValue, nuidValue) = Self.deviceValues(deviceID) }
    }
    /// `c9`'s and `c1`'s values as pings carry them (`devid,…`, `nuid,…`), made when the device id
    /// is set rather than for every ping: each is too long for a small string, so an allocation.
    package private(set) var deviceIDValue = ""
    package private(set) var nuidValue = ""
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
        (deviceIDValue, nuidValue) = Self.deviceValues(deviceID)
        self.vendorID = vendorID
        self.firstPartyID = firstPartyID
        self.firstPartyCreated = firstPartyCreated
        self.firstPartyAccessed = firstPartyAccessed
    }

    private static func deviceValues(_ deviceID: String) -> (String, String) {
        (PingField.deviceID.wireValue(PingValueRules.wireValue(.deviceID, deviceID)),
         PingField.nuid.wireValue(PingValueRules.wireValue(.nuid, deviceID)))
    }
}
