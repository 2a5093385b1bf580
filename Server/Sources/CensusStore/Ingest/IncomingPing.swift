package import MeterWire

/// A ping that passed validation, with the columns the census stores beside the raw query.
package struct IncomingPing: Sendable, Equatable {
    /// The SDK's unique ping id: a re-delivered ping is credited once.
    package var pingID: String
    /// `c13=asid,<appid>`.
    package var appID: String
    /// `prd`.
    package var product: String
    /// `view` or `timer`.
    package var pingType: String
    /// Content, ad, static or audio (``PingClassification``).
    package var kind: CreditKind
    /// `ai` (for DTVR, the CID credited).
    package var assetID: String
    /// `asn`: the channel or stream name.
    package var channelName: String = ""
    /// `c27=cln,<seconds>`.
    package var creditedSeconds: Int64
    /// `c72=otttyp,<type>` when `c71=ottflg,1`: the OTT connection the seconds were played on.
    package var ottType: String = ""
    /// `c59=sesid,<id>`.
    package var sessionID: String
    /// `c9=devid,<hashed id>`, empty when the SDK sent none.
    package var deviceID: String
    /// `uoo=true`: the user opted out.
    package var optedOut: Bool
    /// `c61=createtm,<s>`: when the SDK built the ping.
    package var createdAt: Int64
    /// The query string as received.
    package var rawQuery: String
    /// Seconds the ping claimed beyond what its kind can carry (``CreditBounds``): stored, never
    /// credited. ``creditedSeconds`` holds the rest.
    package var overBoundSeconds: Int64 = 0
    /// What ``CreditBounds`` reads besides the claim: `sd`, `c58`, `c64` and whether `pingid` came.
    package var bounds = BoundFacts()

    /// The key the ping is stored under (``PingKey``): its id scoped to its app, so that no sender
    /// can take another app's ping id and have that app's ping refused as a duplicate.
    package var key: String { PingKey.scoped(appID: appID, pingID: pingID) }
}

/// The facts of a ping that bound what it may credit, read once by the validator.
package struct BoundFacts: Sendable, Equatable {
    /// `sd`: the asset's length in seconds, when given and positive.
    package var length: Int64?
    /// `c58=isLive,true`.
    package var isLive = false
    /// `c64=starttm,<s>`: when the segment, page view or app run the ping measures started.
    package var startedAt: Int64?
    /// The ping carries a `pingid`: AppMeter built it (the original SDKs send none), so it keeps
    /// the duration-ping interval the census announced.
    package var fromAppMeter = false

    /// No facts: every bound that needs one falls back to the interval.
    package init() {}
}

/// How ping ids are scoped in storage: `<pingid>/<tag of the appid>`, for SDK ids and derived ids
/// alike (docs/census.md §4). The tag is the first 16 hex digits of the SHA-256 of the appid:
/// 64 bits that no sender can make collide with another app's, and a fixed 17-byte suffix, so that
/// the unique index holds 53 bytes for an SDK's UUID where `<appid>/<pingid>` held about 75 (that
/// cost census-bench 12 %, docs/performance.md).
package enum PingKey {
    /// The stored key of `pingID` sent by `appID`.
    package static func scoped(appID: String, pingID: String) -> String { pingID + "/" + AppTag.of(appID) }

    /// The ping id as the SDK sent it, from a stored key of `appID`.
    package static func unscoped(_ key: String, appID: String) -> String {
        // Bytes, not characters: a ping id ending in a combining or prepended mark must still match.
        let suffix = Array(("/" + AppTag.of(appID)).utf8)
        guard key.utf8.count >= suffix.count, key.utf8.suffix(suffix.count).elementsEqual(suffix) else { return key }
        return String(decoding: key.utf8.dropLast(suffix.count), as: UTF8.self)
    }
}

/// Why a request was refused.
package struct PingRejection: Error, Sendable, Equatable, CustomStringConvertible {
    /// A sentence naming the parameter and the problem.
    package let reason: String
    /// What kind of refusal it is, for `/metrics`.
    package var category: RefusalCategory = .malformed

    /// Each stored property as given.
    package init(reason: String, category: RefusalCategory = .malformed) {
        self.reason = reason
        self.category = category
    }
    package var description: String { reason }
}
