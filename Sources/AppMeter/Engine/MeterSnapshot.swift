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
