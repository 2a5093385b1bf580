/// Whether an asset is programme content or an advertisement.
public enum AssetKind: String, Sendable, Hashable, CaseIterable, Codable {
    /// Programme content (`c3=st,c`).
    case content
    /// An advertisement (`c3=st,a`).
    case ad
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
        switch metadataValue.lowercased() {
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
    /// `segB`, `segC`, `crossId1`, `crossId2`.
    public var segB: String, segC: String, crossId1: String, crossId2: String
    /// Whether this is an audio asset (`isAudio` = `true`).
    public var isAudio: Bool

    /// Whether the content is live: `length` 0 or 86400 (live positions are Unix seconds).
    public var isLive: Bool { length == 0 || length == 86_400 }
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
    /// `adldx`: the ad's position in its pod (optional).
    public var podIndex: String
}

/// Metadata for the asset being measured.
public enum AssetMetadata: Sendable, Equatable {
    /// Programme content.
    case content(ContentMetadata)
    /// An advertisement.
    case ad(AdMetadata)

    /// Content or ad.
    public var kind: AssetKind {
        switch self {
        case .content: .content
        case .ad: .ad
        }
    }

    /// The asset id.
    public var assetID: String {
        switch self {
        case .content(let content): content.assetID
        case .ad(let ad): ad.assetID
        }
    }
}
