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

/// What the engine has done so far, readable synchronously from any thread.
public struct MeterSnapshot: Sendable {
    /// The lifecycle state after the calls processed so far.
    public var state: LifecycleState
    /// The most recent event (2001, 2002), if any.
    public var lastEvent: MeterEvent?
    /// The most recent error, if any.
    public var lastError: MeterEvent?
    /// Calls ignored because the lifecycle table does not expect them in the current state.
    public var ignoredCalls = 0
    /// Seconds credited so far, per asset.
    public var creditedSeconds: [AssetKey: Int64] = [:]
    /// Pings built so far (what became of them: `MeterInstance.diagnostics`).
    public var pingsBuilt = 0
}
