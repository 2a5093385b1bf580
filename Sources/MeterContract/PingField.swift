/// Every query parameter of a measurement ping, in wire order, with the `name,` prefix its value
/// carries (`c27=cln,15`). The SDK builds pings from this list and the census reads them through
/// it, so a name is written once.
public enum PingField: String, Sendable, CaseIterable {
    case product = "prd"
    /// The parent (client) id, when the app overrides it (Poland `clientid`).
    case clientID = "ci"
    case assetName = "asn"
    case firstPartyID = "fp_id"
    case firstPartyCreated = "fp_cr_tm"
    case firstPartyAccessed = "fp_acc_tm"
    case vendorID = "ve_id"
    case title = "tl"
    case privacyVersion = "prv"
    /// The sub-brand (vcid), when the app overrides it (Poland `subbrand`).
    case subbrand = "c6"
    case program = "cg"
    case appID = "c13"
    case segA = "c32"
    case segB = "c33"
    case segC = "c34"
    case appName = "c15"
    case support = "sup"
    case deviceID = "c9"
    case encrypted = "enc"
    case nuid = "c1"
    case pingType = "at"
    case mediaType = "rt"
    case sdkVersion = "c16"
    case creditedSeconds = "c27"
    case subProduct = "st"
    case crossID1 = "c36"
    case crossID2 = "c37"
    case appVersion = "c12"
    case length = "sd"
    case fullEpisode = "c53"
    case airdate = "c54"
    case adLoadType = "c57"
    case assetID = "ai"
    case assetClass = "c3"
    case adIndex = "adidx"
    case segmentStart = "c64"
    case isLive = "c58"
    case sessionID = "c59"
    case createdAt = "c61"
    case pipMode = "c63"
    case userOptOut = "uoo"
    /// `1` while the stream plays on a connected OTT device (`updateOTT`: AirPlay, casting…).
    case ottFlag = "c71"
    /// The OTT connection: `airplay`, `mirroring`, `casting` or `other`; empty when none.
    case ottType = "c72"
    /// The program genre (Poland `progen`).
    case programGenre = "c44"
    case durationType = "davty"
    /// DTVR: the latest Nielsen ID3 owner string the ping's credit ends at.
    case id3Tag = "id3"
    /// DTVR: the final distributor's CID, empty when null.
    case fdCID = "fdcid"
    /// DTVR: the program content's CID, empty when null.
    case pcCID = "pccid"
    /// DTVR: the FD offset of ``id3Tag`` (seconds into the broadcast day), empty when null.
    case fdOffset = "fdoff"
    /// DTVR: the PC offset of ``id3Tag``, empty when null.
    case pcOffset = "pcoff"
    /// DTVR tag pings: when `sendID3` was called with ``id3Tag``, in Unix milliseconds (``c61``
    /// is whole seconds, and the crediting rule compares the time between calls with the offset
    /// step to the second).
    case tagTime = "id3tm"
    /// App launches: `1` when the previous run ended without going to the background or being
    /// released (a crash or a kill in the foreground), else `0`.
    case crash = "crs"
    /// Digital Audio: `stationType` (1 or 2).
    case stationType = "sttype"
    /// Digital Audio: `provider`.
    case provider = "prov"
    case pingID = "pingid"
    /// AppMeter: `1` on a ping rebuilt from a credit checkpoint after the process died.
    case recovered = "recovered"
    case sendTime = "c62"
    case cacheBuster = "rnd"
    /// The original Browser SDK's viewing session (it sends `c59=sesid,` empty), and the visit of
    /// Google AMP's `prd=session` request. Read by the census only; no AppMeter SDK sends it.
    case browserSessionID = "sessionId"

    /// The parameter name on the wire.
    public var name: String { rawValue }

    /// The prefix of the value (`cln,` for `c27`), or "" when the value is bare.
    public var prefix: String {
        switch self {
        case .subbrand: "vc,"
        case .pipMode: "pipMode,"
        case .programGenre: "progen,"
        case .ottFlag: "ottflg,"
        case .ottType: "otttyp,"
        case .appID: "asid,"
        case .segA: "segA,"
        case .segB: "segB,"
        case .segC: "segC,"
        case .appName: "apn,"
        case .deviceID: "devid,"
        case .nuid: "nuid,"
        case .sdkVersion: "sdkv,"
        case .creditedSeconds: "cln,"
        case .crossID1: "cref1,"
        case .crossID2: "cref2,"
        case .appVersion: "apv,"
        case .fullEpisode: "fef,"
        case .airdate: "oad,"
        case .adLoadType: "adldf,"
        case .assetClass: "st,"
        case .segmentStart: "starttm,"
        case .isLive: "isLive,"
        case .sessionID: "sesid,"
        case .createdAt: "createtm,"
        case .sendTime: "sendTime,"
        default: ""
        }
    }

    /// The wire value for `value`: the prefix followed by it.
    public func wireValue(_ value: String) -> String { prefix + value }

    /// The fields the SDK adds at each send attempt, after the stored ones.
    public static let sendTimeFields: [PingField] = [.sendTime, .cacheBuster]
}
