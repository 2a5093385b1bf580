/// Identifies an asset for crediting: its kind and id.
public struct AssetKey: Sendable, Hashable, CustomStringConvertible {
    /// Content or ad.
    public let kind: AssetKind
    /// The asset id.
    public let assetID: String

    /// Creates a key.
    public init(_ kind: AssetKind, _ assetID: String) {
        self.kind = kind
        self.assetID = assetID
    }

    /// `content/<id>` or `ad/<id>`.
    public var description: String { "\(kind.rawValue)/\(assetID)" }
}
