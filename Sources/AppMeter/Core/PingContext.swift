/// What every ping of an instance shares: who sends it, in which viewing session and channel, with
/// which identity. Owned by the core; product parts read it to build pings.
struct PingContext: Sendable {
    let appInfo: AppInfo
    let sdkVersion: String
    let identifiers: IdentifierSource
    /// The viewing session (`c59`), from `play` (or the first `loadMetadata`).
    var sessionID: String?
    /// `asn`, from `play`.
    var channelName = PingBuilder.defaultChannelName
    /// The identifier fields, changed only by the user's opt-out choice.
    var identity: PingIdentity

    func newPingID() -> String { identifiers.newPingID() }
}
