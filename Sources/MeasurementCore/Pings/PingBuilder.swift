import MeterContract

/// Everything a DCR ping says, gathered by the core when a ping is due.
struct PingFacts: Sendable {
    var context: PingContext
    var asset: AssetMetadata
    /// The content an ad plays in, if any: its program, segments and flags go on ad pings too.
    var content: ContentMetadata?
    var kind: PingKind
    var creditedSeconds: Int64
    var segmentStart: MeterInstant
    var createdAt: MeterInstant
    /// True for the ping that closes the asset on `end` (`davty=2`).
    var isFinal: Bool
    /// `c58`: decided at the segment's first playhead.
    var isLive: Bool
    /// For ads: the place in the break (`adidx=<n>/<n>`).
    var adPosition: Int?
    /// A station, or an ad in a station's stream: `rt=audio`.
    var stationAudio = false
    var pingID: String
}

/// Builds DCR pings (`prd=dcr`) with the fields of ``PingField``, in its order (docs/protocol.md).
enum PingBuilder {
    /// The default channel name when `play` gave none (API reference, `play`).
    static let defaultChannelName = "defaultChannelName"
    /// What an absent segment is sent as (`c32=segA,NA`, as in the guides' example pings).
    static let absentSegment = "NA"

    static func build(_ facts: PingFacts) -> Ping {
        let content: ContentMetadata?
        let assetClass: AssetClass
        let assetTitle: String
        let length: Int64?
        var station: StationMetadata?
        var page: StaticMetadata?
        switch facts.asset {
        case .content(let metadata):
            content = metadata
            assetClass = .content
            assetTitle = metadata.title
            length = metadata.length
        case .ad(let ad):
            content = facts.content
            assetClass = .ad
            assetTitle = ad.title
            length = ad.length
        case .station(let metadata):
            content = nil
            assetClass = .station
            assetTitle = ""
            length = nil
            station = metadata
        case .staticPage(let metadata):
            content = nil
            assetClass = .content
            assetTitle = metadata.assetID
            length = nil
            page = metadata
        case .dtvr:
            // DTVR pings are DTVRPingBuilder's; the DCR part never holds DTVR metadata.
            content = nil
            assetClass = .content
            assetTitle = ""
            length = nil
        }
        let context = facts.context
        let identity = context.identity
        let mediaType: MediaType = page != nil ? .text : content?.isAudio == true || facts.stationAudio ? .audio : .video
        let durationType: DurationType = facts.kind == .view ? .view : (facts.isFinal ? .final : .interim)
        var list = PingFieldList()
        func add(_ field: PingField, _ value: String) { list.add(field, value) }
        func segment(_ value: String?) -> String { value.flatMap { $0.isEmpty ? nil : $0 } ?? absentSegment }
        add(.product, WireProduct.dcr.rawValue)
        add(.clientID, content?.clientID ?? "")
        add(.assetName, context.channelName)
        list.addFirstPartyAndVendor(identity)
        add(.title, assetTitle)
        add(.privacyVersion, "1")
        add(.subbrand, content?.subbrand ?? "")
        add(.program, content?.program ?? "")
        add(.appID, context.app.appID)
        add(.segA, segment(page?.segA ?? content?.segA))
        add(.segB, segment(page?.segB ?? content?.segB))
        add(.segC, segment(page?.segC ?? content?.segC))
        add(.appName, context.app.appName)
        add(.support, "1")
        list.addDevice(identity)
        add(.pingType, facts.kind.wireValue)
        add(.mediaType, mediaType.rawValue)
        add(.sdkVersion, context.sdkVersion)
        add(.creditedSeconds, String(facts.creditedSeconds))
        add(.subProduct, WireProduct.dcr.rawValue)
        add(.crossID1, content?.crossId1 ?? "")
        add(.crossID2, content?.crossId2 ?? "")
        add(.appVersion, context.app.appVersion)
        add(.length, length.map(String.init) ?? "")
        add(.fullEpisode, content?.fullEpisode?.rawValue ?? "")
        add(.airdate, content?.airdate ?? "")
        add(.adLoadType, content?.adLoadType?.rawValue ?? "")
        add(.assetID, facts.asset.assetID)
        add(.assetClass, assetClass.rawValue)
        add(.adIndex, facts.adPosition.map { "\($0)/\($0)" } ?? "")
        add(.segmentStart, String(facts.segmentStart.unixSeconds))
        add(.isLive, String(facts.isLive))
        add(.sessionID, context.sessionID ?? "")
        add(.createdAt, String(facts.createdAt.unixSeconds))
        add(.pipMode, content?.pipMode ?? "")
        add(.userOptOut, identity.optedOut ? "true" : "")
        add(.ottFlag, context.ott.isConnected ? "1" : "0")
        add(.ottType, context.ott.connection?.rawValue ?? "")
        add(.programGenre, content?.programGenre ?? "")
        add(.stationType, station?.stationType ?? "")
        add(.provider, station?.provider ?? "")
        add(.durationType, durationType.rawValue)
        add(.pingID, facts.pingID)
        return Ping(
            id: facts.pingID, kind: facts.kind, assetKind: facts.asset.kind, assetID: facts.asset.assetID,
            creditedSeconds: facts.creditedSeconds, createdAt: facts.createdAt.secondsSince1970, parameters: list.parameters)
    }
}
