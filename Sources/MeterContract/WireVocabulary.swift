/// The measurement products a ping can carry in `prd`.
public enum WireProduct: String, Sendable, CaseIterable {
    /// Digital Content Ratings: video, audio and static content and ads, and Digital Audio stations.
    case dcr
    /// Digital in TV Ratings: viewing credited from the Nielsen ID3 tags of the stream.
    case dtvr
    /// The app itself: launches (with the previous run's crash flag) and foreground run time.
    case app
}

/// The media type of a ping (`rt`).
public enum MediaType: String, Sendable, CaseIterable {
    /// Video content and ads.
    case video
    /// Audio content (Digital Audio, Italy's `isAudio`).
    case audio
    /// Static (text) pages.
    case text
}

/// Whether the measured asset is content or an ad (`c3=st,<c|a>`).
public enum AssetClass: String, Sendable, CaseIterable {
    /// Programme content: `st,c`.
    case content = "c"
    /// An advertisement: `st,a`.
    case ad = "a"
    /// A Digital Audio station (`type: "radio"`): `st,s` (AppMeter's value; docs/protocol.md).
    case station = "s"
}

/// What a ping reports.
public enum PingKind: String, Sendable, CaseIterable {
    /// `at=view`: the asset started (once per asset per viewing session).
    case view
    /// `at=timer`: credited seconds since the asset's previous ping.
    case duration
    /// `at=id3`: one distinct Nielsen ID3 tag passed to `sendID3` (DTVR), crediting nothing
    /// itself; the census credits DTVR from a session's tags (docs/protocol.md §2b).
    case tag

    /// The `at` value.
    public var wireValue: String {
        switch self {
        case .view: "view"
        case .duration: "timer"
        case .tag: "id3"
        }
    }

    /// The kind an `at` value names, if any.
    public init?(wireValue: String) {
        switch wireValue {
        case "view": self = .view
        case "timer": self = .duration
        case "id3": self = .tag
        default: return nil
        }
    }
}

/// `davty`: what a ping is in its asset's life.
public enum DurationType: String, Sendable, CaseIterable {
    /// The view ping.
    case view = "0"
    /// A duration ping while the asset goes on.
    case interim = "1"
    /// The duration ping that closes the asset on `end`.
    case final = "2"
}
