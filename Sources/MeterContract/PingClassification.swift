/// What the census credits a ping as.
public enum CreditKind: String, Sendable, CaseIterable {
    /// Video content.
    case content
    /// An advertisement, in any media type.
    case ad
    /// Static (text) pages.
    case `static`
    /// Audio content.
    case audio
    /// A Digital Audio station (`type: "radio"`).
    case station
    /// Digital in TV Ratings: viewing credited from ID3 tags.
    case dtvr
    /// The app: launches and foreground run time.
    case app
}

/// The one classification of a ping into a ``CreditKind``, used by the census to credit and by the
/// SDK's tests to check what it sends.
///
/// The product decides first (`prd=dtvr` is DTVR). Then the asset class: an ad is an ad whether it
/// plays in video or in audio content (`rt=audio` with `c3=st,a` is an ad), a station is a
/// station. Then the media type: text is static, audio is audio, anything else is content.
public enum PingClassification {
    /// Classifies from the raw `prd`, `rt` and `c3` values (nil when absent).
    public static func classify(product: String? = nil, mediaType: String?, assetClass: String?) -> CreditKind {
        if product == WireProduct.dtvr.rawValue { return .dtvr }
        if product == WireProduct.app.rawValue { return .app }
        if assetClass == PingField.assetClass.wireValue(AssetClass.ad.rawValue) { return .ad }
        if assetClass == PingField.assetClass.wireValue(AssetClass.station.rawValue) { return .station }
        switch mediaType.flatMap(MediaType.init(rawValue:)) {
        case .text: return .static
        case .audio: return .audio
        case .video, nil: return .content
        }
    }

    /// Classifies typed values.
    public static func classify(product: WireProduct = .dcr, mediaType: MediaType, assetClass: AssetClass) -> CreditKind {
        classify(product: product.rawValue, mediaType: mediaType.rawValue,
                 assetClass: PingField.assetClass.wireValue(assetClass.rawValue))
    }
}
