import MeterContract

/// Everything a DTVR ping says.
struct DTVRPingFacts: Sendable {
    var context: PingContext
    var metadata: DTVRMetadata
    /// The source credited: the tag's FD CID, else its PC CID.
    var cid: String
    /// The latest tag of the segment: the credit ends there.
    var tag: NielsenID3Tag
    /// When ``tag`` was passed to `sendID3`.
    var tagTime: MeterInstant
    var kind: PingKind
    var creditedSeconds: Int64
    var segmentStart: MeterInstant
    var createdAt: MeterInstant
    var isFinal: Bool
    var pingID: String
}

/// Builds DTVR pings (`prd=dtvr`, docs/protocol.md §2b): the identity, session and credit fields
/// of DCR pings, the CID as asset id, and the tag the credit ends at (for a tag ping, `at=id3`, the
/// tag it carries).
enum DTVRPingBuilder {
    static func build(_ facts: DTVRPingFacts) -> Ping {
        let context = facts.context
        let identity = context.identity
        var list = PingFieldList()
        list.add(.product, WireProduct.dtvr.rawValue)
        list.add(.assetName, facts.metadata.channelName.isEmpty ? context.channelName : facts.metadata.channelName)
        list.addFirstPartyAndVendor(identity)
        list.addAppAndDevice(context)
        list.add(.pingType, facts.kind.wireValue)
        list.add(.mediaType, MediaType.video.rawValue)
        list.add(.sdkVersion, context.sdkVersion)
        list.add(.creditedSeconds, String(facts.creditedSeconds))
        list.add(.subProduct, WireProduct.dtvr.rawValue)
        list.add(.appVersion, context.app.appVersion)
        list.add(.adLoadType, facts.metadata.adModel.rawValue)
        list.add(.assetID, facts.cid)
        list.add(.assetClass, AssetClass.content.rawValue)
        list.add(.segmentStart, String(facts.segmentStart.unixSeconds))
        list.add(.isLive, "true")
        list.add(.sessionID, context.sessionID ?? "")
        list.add(.createdAt, String(facts.createdAt.unixSeconds))
        list.add(.userOptOut, identity.optedOut ? "true" : "")
        list.add(.id3Tag, facts.tag.ownerString)
        list.add(.fdCID, facts.tag.fdCID ?? "")
        list.add(.pcCID, facts.tag.pcCID ?? "")
        list.add(.fdOffset, facts.tag.fdOffset.map { zeroPadded($0, width: 5) } ?? "")
        list.add(.pcOffset, facts.tag.pcOffset.map { zeroPadded($0, width: 5) } ?? "")
        list.add(.tagTime, String(unixMilliseconds(facts.tagTime)))
        list.add(.durationType, durationType(facts))
        list.add(.pingID, facts.pingID)
        return Ping(
            id: facts.pingID, kind: facts.kind, assetKind: .dtvr, assetID: facts.cid,
            creditedSeconds: facts.creditedSeconds, createdAt: facts.createdAt.secondsSince1970, parameters: list.parameters)
    }

    /// `davty`: a tag ping is no step of the asset's life, and carries none.
    private static func durationType(_ facts: DTVRPingFacts) -> String {
        switch facts.kind {
        case .view: DurationType.view.rawValue
        case .duration: (facts.isFinal ? DurationType.final : .interim).rawValue
        case .tag: ""
        }
    }

    /// Whole Unix milliseconds (rounded down); an instant no `Int64` holds is sent as 0, which the
    /// census reads as no call time.
    private static func unixMilliseconds(_ instant: MeterInstant) -> Int64 {
        let milliseconds = (instant.secondsSince1970 * 1000).rounded(.down)
        guard milliseconds.isFinite, abs(milliseconds) < 9e18 else { return 0 }
        return Int64(milliseconds)
    }

    /// `value` in decimal, with leading zeros up to `width` digits (`%05d`).
    static func zeroPadded(_ value: Int, width: Int) -> String {
        let digits = String(value.magnitude)
        let padding = String(repeating: "0", count: max(0, width - digits.count - (value < 0 ? 1 : 0)))
        return (value < 0 ? "-" : "") + padding + digits
    }
}
