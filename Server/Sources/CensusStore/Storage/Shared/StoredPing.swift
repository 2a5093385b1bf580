public import MeterWire
import SQLKit

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

extension StoredPing {
    /// The columns ``init(reading:)`` reads.
    static let columns = ["ping_id", "appid", "ping_type", "credit_kind", "asset_id", "credited_seconds",
                          "created_at", "raw_query", "channel_name", "session_id", "received_at"]

    /// A stored ping from its row of `census_pings` (its ``columns``).
    init(reading row: any SQLRow) throws {
        let appid = try row.decode(column: "appid", as: String.self)
        self.init(
            pingID: PingKey.unscoped(try row.decode(column: "ping_id", as: String.self), appID: appid),
            appid: appid,
            pingType: try row.decode(column: "ping_type", as: String.self),
            kind: CreditKind(rawValue: try row.decode(column: "credit_kind", as: String.self)) ?? .content,
            assetid: try row.decode(column: "asset_id", as: String.self),
            creditedSeconds: try row.decode(column: "credited_seconds", as: Int64.self),
            createdAt: try row.decode(column: "created_at", as: Int64.self),
            rawQuery: try row.decode(column: "raw_query", as: String.self),
            channel: try row.decode(column: "channel_name", as: String.self),
            session: try row.decode(column: "session_id", as: String.self),
            receivedAt: try row.decode(column: "received_at", as: Int64.self))
    }
}
