/// Everything a DCR ping says, gathered by the engine when a ping is due.
struct PingFacts: Sendable {
    var appInfo: AppInfo
    var sdkVersion: String
    var sessionID: String
    var channelName: String
    var asset: AssetMetadata
    /// The content an ad plays in, if any: its program, segments and flags go on ad pings too.
    var content: ContentMetadata?
    var kind: PingKind
    var creditedSeconds: Int64
    var segmentStart: Double
    var createdAt: Double
    /// True for the ping that closes the asset on `end` (`davty=2`).
    var isFinal: Bool
    var pingID: String
    var identity: PingIdentity
}

/// Builds DCR pings (`prd=dcr`) with the parameter names and order of docs/protocol.md.
enum PingBuilder {
    /// The default channel name when `play` gave none (API reference, `play`).
    static let defaultChannelName = "defaultChannelName"

    static func build(_ facts: PingFacts) -> Ping {
        let content: ContentMetadata?
        let assetKindCode: String
        let assetTitle: String
        let length: Int64?
        var isLive = false
        var podIndex = ""
        switch facts.asset {
        case .content(let metadata):
            content = metadata
            assetKindCode = "c"
            assetTitle = metadata.title
            length = metadata.length
            isLive = metadata.isLive
        case .ad(let ad):
            content = facts.content
            assetKindCode = "a"
            assetTitle = ad.title
            length = ad.length
            podIndex = ad.podIndex
        }
        let rt = content?.isAudio == true ? "audio" : "video"
        let davty = facts.kind == .view ? "0" : (facts.isFinal ? "2" : "1")
        let parameters: [PingParameter] = [
            .init("prd", "dcr"),
            .init("asn", facts.channelName),
            .init("fp_id", facts.identity.firstPartyID),
            .init("fp_cr_tm", facts.identity.firstPartyCreated),
            .init("fp_acc_tm", facts.identity.firstPartyAccessed),
            .init("ve_id", facts.identity.vendorID),
            .init("tl", assetTitle),
            .init("prv", "1"),
            .init("cg", content?.program ?? ""),
            .init("c13", "asid,\(facts.appInfo.appID)"),
            .init("c32", "segA,"),
            .init("c33", "segB,\(content?.segB ?? "")"),
            .init("c34", "segC,\(content?.segC ?? "")"),
            .init("c15", "apn,\(facts.appInfo.appName)"),
            .init("sup", "1"),
            .init("c9", "devid,\(facts.identity.deviceID)"),
            .init("enc", facts.identity.deviceID.isEmpty ? "" : "true"),
            .init("c1", "nuid,\(facts.identity.deviceID)"),
            .init("at", facts.kind == .view ? "view" : "timer"),
            .init("rt", rt),
            .init("c16", "sdkv,\(facts.sdkVersion)"),
            .init("c27", "cln,\(facts.creditedSeconds)"),
            .init("st", "dcr"),
            .init("c36", "cref1,\(content?.crossId1 ?? "")"),
            .init("c37", "cref2,\(content?.crossId2 ?? "")"),
            .init("c12", "apv,\(facts.appInfo.appVersion)"),
            .init("sd", length.map(String.init) ?? ""),
            .init("c53", "fef,\(content?.fullEpisodeFlag ?? "")"),
            .init("c54", "oad,\(content?.airdate ?? "")"),
            .init("c57", "adldf,\(content?.adLoadType ?? "")"),
            .init("ai", facts.asset.assetID),
            .init("c3", "st,\(assetKindCode)"),
            .init("adidx", podIndex),
            .init("c64", "starttm,\(Int64(facts.segmentStart))"),
            .init("c58", "isLive,\(isLive)"),
            .init("c59", "sesid,\(facts.sessionID)"),
            .init("c61", "createtm,\(Int64(facts.createdAt))"),
            .init("uoo", facts.identity.optedOut ? "true" : ""),
            .init("davty", davty),
            .init("pingid", facts.pingID),
        ]
        return Ping(
            id: facts.pingID, kind: facts.kind, assetKind: facts.asset.kind, assetID: facts.asset.assetID,
            creditedSeconds: facts.creditedSeconds, createdAt: facts.createdAt, parameters: parameters)
    }
}
