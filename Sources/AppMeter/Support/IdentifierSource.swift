import Foundation

/// Produces the random identifiers an instance needs: viewing-session ids (`c59`) and ping ids.
///
/// Injected so that scenario tests can compare exact ping URLs.
public protocol IdentifierSource: Sendable {
    /// A new viewing-session id: 32 lower-case base-36 characters.
    func newSessionID() -> String
    /// A new ping id, unique across devices and launches; the census credits a ping once by this id.
    func newPingID() -> String
    /// A new first-party id (`fp_id`).
    func newFirstPartyID() -> String
    /// A new vendor id, for platforms that have none of their own.
    func newVendorID() -> String
}

extension IdentifierSource {
    /// 32 random base-36 characters, like a session id.
    public func newFirstPartyID() -> String { RandomIdentifierSource().newSessionID() }
    /// A random UUID.
    public func newVendorID() -> String { UUID().uuidString }
}

/// Identifiers from the system random number generator.
public struct RandomIdentifierSource: IdentifierSource {
    private static let alphabet = Array("0123456789abcdefghijklmnopqrstuvwxyz")

    /// Creates a random identifier source.
    public init() {}

    /// 32 random base-36 characters.
    public func newSessionID() -> String {
        String((0..<32).map { _ in Self.alphabet.randomElement()! })
    }

    /// A random UUID, lower-cased without dashes.
    public func newPingID() -> String {
        UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
    }
}

/// Predictable identifiers (`ses1`, `ses2`, … and `<prefix>-1`, `<prefix>-2`, …) for tests.
public final class SequentialIdentifierSource: IdentifierSource {
    private let counters = Locked((session: 0, ping: 0, fpid: 0))
    private let prefix: String

    /// Creates a source whose ping ids start with `prefix`.
    public init(prefix: String = "ping") {
        self.prefix = prefix
    }

    /// `ses1`, `ses2`, …
    public func newSessionID() -> String {
        let n = counters.withLock { $0.session += 1; return $0.session }
        return "ses\(n)"
    }

    /// `<prefix>-1`, `<prefix>-2`, …
    public func newPingID() -> String {
        let n = counters.withLock { $0.ping += 1; return $0.ping }
        return "\(prefix)-\(n)"
    }

    /// `fpid1`, `fpid2`, …
    public func newFirstPartyID() -> String {
        let n = counters.withLock { $0.fpid += 1; return $0.fpid }
        return "fpid\(n)"
    }

    /// A fixed vendor id.
    public func newVendorID() -> String { "00000000-0000-4000-8000-0000000000VE" }
}
