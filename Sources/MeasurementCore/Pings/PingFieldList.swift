import MeterContract

/// A ping's parameters as they are added, in wire order, with the fields every product shares.
struct PingFieldList {
    private(set) var parameters: [PingParameter] = []

    /// Room for every field a ping can carry (``PingField`` has 59), so that building one never regrows.
    init() { parameters.reserveCapacity(64) }

    mutating func add(_ field: PingField, _ value: String) {
        parameters.append(PingParameter(field.name, field.wireValue(PingValueRules.wireValue(field, value))))
    }

    /// `fp_id`, `fp_cr_tm`, `fp_acc_tm`, `ve_id`: empty when opted out (docs/privacy.md).
    mutating func addFirstPartyAndVendor(_ identity: PingIdentity) {
        add(.firstPartyID, identity.firstPartyID)
        add(.firstPartyCreated, identity.firstPartyCreated)
        add(.firstPartyAccessed, identity.firstPartyAccessed)
        add(.vendorID, identity.vendorID)
    }

    /// `prv`, `c13`, `c15`, `sup`, then the device fields: what DTVR and app pings carry after
    /// the first-party and vendor ids.
    mutating func addAppAndDevice(_ context: PingContext) {
        add(.privacyVersion, "1")
        add(.appID, context.app.appID)
        add(.appName, context.app.appName)
        add(.support, "1")
        addDevice(context.identity)
    }

    /// `c9`, `enc`, `c1`: the hashed device id, empty when opted out.
    mutating func addDevice(_ identity: PingIdentity) {
        parameters.append(PingParameter(PingField.deviceID.name, identity.deviceIDValue))
        add(.encrypted, identity.deviceID.isEmpty ? "" : "true")
        parameters.append(PingParameter(PingField.nuid.name, identity.nuidValue))
    }
}
