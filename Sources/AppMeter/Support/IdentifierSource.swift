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

/// Identifiers from the system random number generator; ping ids also carry the time they were
/// made, from `clock`.
public struct RandomIdentifierSource: IdentifierSource {
    private static let alphabet = Array("0123456789abcdefghijklmnopqrstuvwxyz")
    private static let hexDigits = Array("0123456789abcdef".utf8)
    private let clock: any MeterClock

    /// Creates a random identifier source whose ping ids start with the time of `clock`.
    public init(clock: any MeterClock = SystemClock()) {
        self.clock = clock
    }

    /// 32 random base-36 characters.
    public func newSessionID() -> String {
        var generator = SystemRandomBits()
        return String((0..<32).map { _ in Self.alphabet.randomElement(using: &generator)! })
    }

    /// A UUIDv7 (RFC 9562) as 32 lower-case hex digits without dashes: the milliseconds since 1970
    /// of the clock, then 74 random bits around the version (`7`) and variant bits.
    ///
    /// Ids made later sort later, so a census's unique index of ping ids takes new ids near its
    /// end rather than each at a random page: with fully random ids, a census on SQLite took about
    /// a quarter fewer pings a second, and its p99 doubled (docs/performance.md).
    public func newPingID() -> String {
        let milliseconds = UInt64(max(0, (clock.now().secondsSince1970 * 1000).rounded(.down)))
        // Not `UUID()`: it read /dev/urandom through a file each time on Linux, and the dash
        // removal bridged through NSString. `SystemRandomBits`: a block at a time on Linux.
        var generator = SystemRandomBits()
        let high = (milliseconds & 0xFFFF_FFFF_FFFF) << 16 | 0x7000 | (generator.next() as UInt64) & 0x0FFF
        let low = 0x8000_0000_0000_0000 | (generator.next() as UInt64) & 0x3FFF_FFFF_FFFF_FFFF
        return String(unsafeUninitializedCapacity: 32) { buffer in
            for index in 0..<32 {
                let bits = index < 16 ? high : low
                buffer[index] = Self.hexDigits[Int(bits >> UInt64(60 - 4 * (index % 16)) & 0xF)]
            }
            return 32
        }
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
