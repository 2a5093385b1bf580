/// What the census credits a ping as.
public enum CreditKind: String, Sendable, CaseIterable, Codable {
    /// Video content.
    case content
    /// An advertisement, in any media type.
    case ad
    /// Static (text) pages.
    case `static`
    /// Audio content.
    case audio
}

/// The one classification of a ping into a ``CreditKind``, used by the census to credit and by the
/// SDK's tests to check what it sends.
///
/// The asset class decides first: an ad is an ad whether it plays in video or in audio content
/// (`rt=audio` with `c3=st,a` is an ad). Then the media type: text is static, audio is audio,
/// anything else is content.
public enum PingClassification {
    /// Classifies from the raw `rt` and `c3` values (nil when absent).
    public static func classify(mediaType: String?, assetClass: String?) -> CreditKind {
        if assetClass == PingField.assetClass.wireValue(AssetClass.ad.rawValue) { return .ad }
        switch mediaType.flatMap(MediaType.init(rawValue:)) {
        case .text: return .static
        case .audio: return .audio
        case .video, nil: return .content
        }
    }

    /// Classifies typed values.
    public static func classify(mediaType: MediaType, assetClass: AssetClass) -> CreditKind {
        classify(mediaType: mediaType.rawValue, assetClass: PingField.assetClass.wireValue(assetClass.rawValue))
    }
}
