/// What kind of asset is credited.
public enum AssetKind: String, Sendable, Hashable, CaseIterable {
    /// Programme content (`c3=st,c`).
    case content
    /// An advertisement (`c3=st,a`).
    case ad
    /// A Digital Audio station (`type: "radio"`, `c3=st,s`).
    case station
    /// A DTVR source, credited from ID3 tags (`prd=dtvr`), keyed by its CID.
    case dtvr
    /// A static page section (`rt=text`), credited for its foreground time.
    case staticPage = "static"
    /// The app itself (`prd=app`): its foreground run time.
    case app
}

/// The documented ad `type` values.
public enum AdType: String, Sendable, CaseIterable {
    /// Before the content.
    case preroll
    /// Inside the content.
    case midroll
    /// After the content.
    case postroll
    /// An ad whose position is not known.
    case ad
}

/// `isfullepisode`: whether the content is a full episode.
public enum FullEpisode: String, Sendable, CaseIterable {
    /// `y` (also `yes`, any case).
    case yes = "y"
    /// `n` (also `no`, any case).
    case no = "n"

    /// Reads the documented values `y`/`n` and the `Yes`/`No` of the Poland sample.
    public init?(metadataValue: String) {
        switch metadataValue.asciiLowercased {
        case "y", "yes": self = .yes
        case "n", "no": self = .no
        default: return nil
        }
    }
}

/// `adloadtype`: how ads are inserted into the content.
public enum AdLoadType: String, Sendable, CaseIterable {
    /// `1`: the ads of the broadcast (linear).
    case linear = "1"
    /// `2`: ads inserted for this stream (dynamic).
    case dynamic = "2"
}

/// Typed content metadata from `loadMetadata`.
public struct ContentMetadata: Sendable, Equatable {
    /// `assetid`.
    public var assetID: String
    /// `program`.
    public var program: String
    /// `title`.
    public var title: String
    /// `length` in seconds, if valid.
    public var length: Int64?
    /// `airdate`, as given.
    public var airdate: String
    /// `isfullepisode`, nil when missing or invalid.
    public var fullEpisode: FullEpisode?
    /// `adloadtype`, nil when missing or invalid.
    public var adLoadType: AdLoadType?
    /// `segA`, `segB`, `segC`, `crossId1`, `crossId2`.
    public var segA = "", segB = "", segC = "", crossId1 = "", crossId2 = ""
    /// Poland: `progen` (program genre), `clientid` (parent id) and `subbrand` (sub-brand id).
    public var programGenre = "", clientID = "", subbrand = ""
    /// `pipMode` (simplified API samples): `true` while playing in picture-in-picture.
    public var pipMode = ""
    /// Whether this is an audio asset (`isAudio` = `true`).
    public var isAudio = false
    /// DTVR alongside DCR (the simplified API's "DCR & DTVR" metadata): `adModel` was given too.
    public var dtvr: DTVRMetadata?

    /// Creates content metadata.
    public init(
        assetID: String, program: String, title: String, length: Int64?, airdate: String,
        fullEpisode: FullEpisode?, adLoadType: AdLoadType?
    ) {
        self.assetID = assetID
        self.program = program
        self.title = title
        self.length = length
        self.airdate = airdate
        self.fullEpisode = fullEpisode
        self.adLoadType = adLoadType
    }

    /// Whether this content stops when the app goes to the background: video, not in
    /// picture-in-picture (`pipMode` "true").
    var stopsInBackground: Bool { !isAudio && pipMode.asciiLowercased != "true" }

    /// The `length` of a 24×7 live stream (the guides'
    /// "86400 for 24×7 live"; an event's planned length and 0 are live only when the playheads are
    /// Unix times).
    public static let alwaysOnLength: Int64 = 86_400
}

/// DTVR metadata (the DTVR guide "Content Metadata"): `type` content, `adModel`, `channelName`.
public struct DTVRMetadata: Sendable, Equatable {
    /// `adModel`: 1 linear (matches the TV ad load), 2 dynamic.
    public var adModel: AdLoadType
    /// `channelName` (up to 32 characters), or empty: then `play`'s channel name.
    public var channelName: String

    /// Creates DTVR metadata.
    public init(adModel: AdLoadType, channelName: String) {
        self.adModel = adModel
        self.channelName = channelName
    }
}

/// Digital Audio station metadata (API reference `type: "radio"`).
public struct StationMetadata: Sendable, Equatable {
    /// `assetid`: the call letters and band, in capitals (`WXYZ-FM`).
    public var assetID: String
    /// `stationType`: `1` or `2`.
    public var stationType: String
    /// `provider`.
    public var provider: String

    /// Creates station metadata.
    public init(assetID: String, stationType: String, provider: String) {
        self.assetID = assetID
        self.stationType = stationType
        self.provider = provider
    }
}

/// Static page metadata (the simplified guide "Static Metadata", the Italy static page).
public struct StaticMetadata: Sendable, Hashable {
    /// `section`: the page or site section measured.
    public var section: String
    /// `assetid`: the article or page id (optional).
    public var assetID: String
    /// `segA`, `segB`, `segC`.
    public var segA: String, segB: String, segC: String

    /// Creates static metadata.
    public init(section: String, assetID: String = "", segA: String = "", segB: String = "", segC: String = "") {
        self.section = section
        self.assetID = assetID
        self.segA = segA
        self.segB = segB
        self.segC = segC
    }

    /// One string per distinct page: each value with its length first, so no two pages share one.
    var viewKey: String {
        var key = ""
        for value in [section, assetID, segA, segB, segC] {
            key += String(value.utf8.count) + ":" + value
        }
        return key
    }
}

/// Typed ad metadata from `loadMetadata`.
public struct AdMetadata: Sendable, Equatable {
    /// `type`.
    public var type: AdType
    /// `assetid`.
    public var assetID: String
    /// `title` (optional).
    public var title: String
    /// `length` in seconds (optional).
    public var length: Int64?
    /// `adldx` (or `adIdx`): the ad's index in its sequence (optional). A changed index starts a
    /// new ad even with the same `assetid`.
    public var podIndex: String
}

/// Metadata for the asset being measured.
public indirect enum AssetMetadata: Sendable, Equatable {
    /// Programme content.
    case content(ContentMetadata)
    /// An advertisement.
    case ad(AdMetadata)
    /// A Digital Audio station.
    case station(StationMetadata)
    /// DTVR only: the stream is credited from its ID3 tags, not from playheads.
    case dtvr(DTVRMetadata)
    /// A static page, credited for the time it is shown in the foreground.
    case staticPage(StaticMetadata)

    /// What kind of asset it is.
    public var kind: AssetKind {
        switch self {
        case .content: .content
        case .ad: .ad
        case .station: .station
        case .dtvr: .dtvr
        case .staticPage: .staticPage
        }
    }

    /// The DTVR metadata it carries: DTVR alone, or DCR content with `adModel`.
    var dtvrMetadata: DTVRMetadata? {
        switch self {
        case .dtvr(let metadata): metadata
        case .content(let content): content.dtvr
        case .ad, .station, .staticPage: nil
        }
    }

    /// What a log line says of it: its kind and id (written out: Embedded Swift, the browser's
    /// engine, cannot print a value it is not told how to).
    var logText: String {
        switch self {
        case .dtvr(let metadata): "dtvr channelName=" + metadata.channelName
        case .staticPage(let page): "static section=" + page.section
        default: kind.rawValue + " assetid=" + assetID
        }
    }

    /// The static page it describes, if it is one.
    var staticMetadata: StaticMetadata? {
        if case .staticPage(let page) = self { return page }
        return nil
    }

    /// The asset id (empty for DTVR, whose assets are the CIDs of its tags; the section for a static page).
    public var assetID: String {
        switch self {
        case .content(let content): content.assetID
        case .ad(let ad): ad.assetID
        case .station(let station): station.assetID
        case .dtvr: ""
        case .staticPage(let page): page.section
        }
    }
}
