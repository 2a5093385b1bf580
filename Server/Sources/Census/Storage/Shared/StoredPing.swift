import MeterWire

/// A stored ping, as returned by the session API.
public struct StoredPing: Sendable, Equatable, Codable {
    /// The ping id as the SDK sent it (or the census derived it).
    public var pingID: String
    /// `c13`'s appid.
    public var appid: String
    /// `view`, `timer`, or the DTVR tag ping's type.
    public var pingType: String
    /// Content, ad, static or audio.
    public var kind: CreditKind
    /// `ai`.
    public var assetid: String
    /// The seconds credited (over-bound seconds left out).
    public var creditedSeconds: Int64
    /// `c61`, Unix seconds.
    public var createdAt: Int64
    /// The query as received.
    public var rawQuery: String
    /// The channel name (`asn`), as stored.
    public var channel: String
    /// The viewing session (`c59`, else the `sessionId` parameter), as stored.
    public var session: String
    /// When the census received it, Unix milliseconds: DTVR tag times are held to it (``SessionCredit``).
    public var receivedAt: Int64

    /// A stored ping from its columns (tools and tests build them; the store reads them).
    public init(pingID: String, appid: String, pingType: String, kind: CreditKind, assetid: String,
                creditedSeconds: Int64, createdAt: Int64, rawQuery: String, channel: String = "", session: String = "",
                receivedAt: Int64 = 0) {
        self.pingID = pingID
        self.appid = appid
        self.pingType = pingType
        self.kind = kind
        self.assetid = assetid
        self.creditedSeconds = creditedSeconds
        self.createdAt = createdAt
        self.rawQuery = rawQuery
        self.channel = channel
        self.session = session
        self.receivedAt = receivedAt
    }
}
