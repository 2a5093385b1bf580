public import MeterWire

/// A stored ping, as returned by the session API.
public struct StoredPing: Sendable, Equatable, Codable {
    /// The ping id as the SDK sent it (or the census derived it).
    package var pingID: String
    /// `c13`'s appid.
    package var appid: String
    /// `view`, `timer`, or the DTVR tag ping's type.
    package var pingType: String
    /// Content, ad, static or audio.
    package var kind: CreditKind
    /// `ai`.
    package var assetid: String
    /// The seconds credited (over-bound seconds left out).
    package var creditedSeconds: Int64
    /// `c61`, Unix seconds.
    package var createdAt: Int64
    /// The query as received.
    package var rawQuery: String
    /// The channel name (`asn`), as stored.
    package var channel: String
    /// The viewing session (`c59`, else the `sessionId` parameter), as stored.
    package var session: String
    /// When the census received it, Unix milliseconds: DTVR tag times are held to it (``SessionCredit``).
    package var receivedAt: Int64

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
