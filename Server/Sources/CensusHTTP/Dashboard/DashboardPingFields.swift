import CensusStore
import Foundation
import MeterWire

/// What each ping parameter means, for the dashboard's decoded pings: an exhaustive switch over
/// the wire contract's fields, so a field added to ``PingField`` cannot go unexplained
/// (docs/protocol.md §2 describes them).
enum DashboardPingFields {
    /// `{"c27": {"prefix": "cln,", "meaning": "…"}, …}`, a JavaScript literal.
    static let json: String = {
        var fields: [String: [String: String]] = [:]
        for field in PingField.allCases { fields[field.name] = ["prefix": field.prefix, "meaning": meaning(of: field)] }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        // U+2028/9 are line ends in older JavaScript; JSONEncoder leaves them as they are. None is in these texts.
        return (try? encoder.encode(fields)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }()

    static func meaning(of field: PingField) -> String {
        switch field {
        case .product: "product: dcr, dtvr or the static product"
        case .clientID: "parent (client) id, when the app overrides it"
        case .assetName: "channel or asset name (asn)"
        case .firstPartyID: "first-party id of the device"
        case .firstPartyCreated: "when the first-party id was created"
        case .firstPartyAccessed: "when the first-party id was last read"
        case .vendorID: "vendor id (hashed)"
        case .title: "title of the program or page"
        case .privacyVersion: "privacy notice version"
        case .subbrand: "sub-brand (vcid)"
        case .program: "program name"
        case .appID: "app id the ping credits (appid)"
        case .segA: "custom segment A"
        case .segB: "custom segment B"
        case .segC: "custom segment C"
        case .appName: "app name"
        case .support: "supported features"
        case .deviceID: "device id (hashed)"
        case .encrypted: "whether the ids are hashed"
        case .nuid: "Nielsen user id (hashed)"
        case .pingType: "ping type: view, timer (duration) or id3 (DTVR tag)"
        case .mediaType: "media type: video, audio, text"
        case .sdkVersion: "SDK and version"
        case .creditedSeconds: "seconds this ping credits (c27)"
        case .subProduct: "sub-product"
        case .crossID1: "cross-reference id 1"
        case .crossID2: "cross-reference id 2"
        case .appVersion: "app version"
        case .length: "asset length, seconds"
        case .fullEpisode: "full episode (y/n)"
        case .airdate: "original air date"
        case .adLoadType: "ad load type: 1 linear, 2 dynamic"
        case .assetID: "asset id (ai)"
        case .assetClass: "asset class: content or ad type"
        case .adIndex: "the ad's place in its break (n/of)"
        case .segmentStart: "when the credited segment began"
        case .isLive: "live (true) or on demand (false)"
        case .sessionID: "viewing session id"
        case .createdAt: "when the ping was built (c61)"
        case .pipMode: "picture in picture"
        case .userOptOut: "user opted out"
        case .ottFlag: "1 while playing on a connected OTT device"
        case .ottType: "OTT connection: airplay, mirroring, casting or other"
        case .programGenre: "program genre"
        case .durationType: "duration type"
        case .id3Tag: "DTVR: the latest Nielsen ID3 tag"
        case .fdCID: "DTVR: final distributor's CID"
        case .pcCID: "DTVR: program content's CID"
        case .fdOffset: "DTVR: FD offset of the tag, seconds into the broadcast day"
        case .pcOffset: "DTVR: PC offset of the tag"
        case .tagTime: "DTVR: when sendID3 was called, Unix ms"
        case .crash: "app launch after a crash or kill (1)"
        case .stationType: "Digital Audio station type"
        case .provider: "Digital Audio provider"
        case .pingID: "ping id (the census stores one row per id)"
        case .recovered: "rebuilt from a credit checkpoint after the process died"
        case .sendTime: "when the ping was sent (c62)"
        case .cacheBuster: "cache buster"
        case .browserSessionID: "Browser SDK / AMP visit id"
        }
    }
}
