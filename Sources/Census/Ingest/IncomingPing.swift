import MeterWire

/// A ping that passed validation, with the columns the census stores beside the raw query.
public struct IncomingPing: Sendable, Equatable {
    /// The SDK's unique ping id: a re-delivered ping is credited once.
    public var pingID: String
    /// `c13=asid,<appid>`.
    public var appID: String
    /// `prd`.
    public var product: String
    /// `view` or `timer`.
    public var pingType: String
    /// Content, ad, static or audio (``PingClassification``).
    public var kind: CreditKind
    /// `ai` (for DTVR, the CID credited).
    public var assetID: String
    /// `asn`: the channel or stream name.
    public var channelName: String = ""
    /// `c27=cln,<seconds>`.
    public var creditedSeconds: Int64
    /// `c72=otttyp,<type>` when `c71=ottflg,1`: the OTT connection the seconds were played on.
    public var ottType: String = ""
    /// `c59=sesid,<id>`.
    public var sessionID: String
    /// `c9=devid,<hashed id>`, empty when the SDK sent none.
    public var deviceID: String
    /// `uoo=true`: the user opted out.
    public var optedOut: Bool
    /// `c61=createtm,<s>`: when the SDK built the ping.
    public var createdAt: Int64
    /// The query string as received.
    public var rawQuery: String
}

/// Why a request was refused.
public struct PingRejection: Error, Sendable, Equatable, CustomStringConvertible {
    /// A sentence naming the parameter and the problem.
    public let reason: String
    public var description: String { reason }
}
