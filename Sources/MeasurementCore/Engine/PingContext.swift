/// What every ping of an instance shares: who sends it, in which viewing session and channel, with
/// which identity. Owned by the core; product parts read it to build pings.
struct PingContext: Sendable {
    let app: MeasuredApp
    let sdkVersion: String
    let identifiers: CoreIdentifiers
    /// The viewing session (`c59`), from `play` (or the first `loadMetadata`).
    var sessionID: String?
    /// `asn`, from `play`; until then the market's default.
    var channelName: String
    /// The identifier fields, changed only by the user's opt-out choice.
    var identity: PingIdentity
    /// The OTT device the stream plays on (`c71`/`c72`), from `updateOTT`.
    var ott = OTTStatus.disconnected
    /// Moved on by the core for every command that can change what a ping says (all but
    /// playheads, wake-ups and what only reaches parts through other commands): a part may reuse
    /// a ping it built at the same revision, changing only its credit and time.
    var revision = 0

    init(app: MeasuredApp, sdkVersion: String, identifiers: CoreIdentifiers, identity: PingIdentity) {
        self.app = app
        self.sdkVersion = sdkVersion
        self.identifiers = identifiers
        self.identity = identity
        channelName = Self.defaultChannelName(for: app)
    }

    /// `defaultChannelName` (API reference), or the app name where the market says so (Poland).
    static func defaultChannelName(for app: MeasuredApp) -> String {
        app.market.channelNameDefaultsToAppName ? app.appName : PingBuilder.defaultChannelName
    }

    /// A new ping id. Handed on as a function, it is `identifiers.newPingID`: the method itself
    /// (`context.newPingID`) is a closure holding a copy of the whole context.
    func newPingID() -> String { identifiers.newPingID() }
}
