/// Where the core takes new session and ping ids from. Identifiers need randomness and a clock,
/// which the core does not own: each platform passes its generators in (the SDK wraps its
/// `IdentifierSource`, a browser its `crypto.getRandomValues`).
public struct CoreIdentifiers: Sendable {
    /// A new viewing-session id (`c59`).
    package var newSessionID: @Sendable () -> String
    /// A new ping id.
    package var newPingID: @Sendable () -> String

    /// Creates the generators.
    public init(newSessionID: @escaping @Sendable () -> String, newPingID: @escaping @Sendable () -> String) {
        self.newSessionID = newSessionID
        self.newPingID = newPingID
    }
}
