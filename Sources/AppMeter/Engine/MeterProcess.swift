import Foundation

/// What the instances of one process share, with one owner: the four live instances per appid,
/// which instance keeps the app's run, one delivery queue per storage and collector, and the
/// user's opt-out choice across an app's instances.
///
/// An app has one (``shared``, what ``MeterEnvironment/live`` carries); a test that must start
/// as a fresh process (a new launch, no instance counted yet) gives its environment a new one.
public final class MeterProcess: Sendable {
    /// The process's own: every environment carries it unless given another.
    public static let shared = MeterProcess()

    /// The live instances per appid (the API reference's limit of four).
    let instances = InstanceSlots()
    /// Which instance keeps the app's run, per storage.
    let appRuns = AppRunClaims()
    /// One delivery queue per storage and collector.
    let deliveryQueues = DeliveryQueues()
    /// The opt-out choice an app's instances share (decisions.md P9).
    let optOut = SharedOptOut()

    /// A process with no instance yet.
    public init() {}
}
