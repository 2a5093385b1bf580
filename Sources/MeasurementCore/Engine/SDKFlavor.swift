/// The three SDK flavours of the integration guides, which decide how opt-out works and which
/// identifiers exist.
public enum SDKFlavor: String, Sendable, CaseIterable {
    /// The device's ad-tracking setting (ATT / Limit Ad Tracking) decides opt-out; the ad id is used.
    case global
    /// No ad framework: the vendor id is used and the user chooses on the opt-out page.
    case noAdFramework
    /// No identifier of any kind, opted out from the start (Kids apps, Ireland).
    case noID
}
