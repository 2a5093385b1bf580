import Crypto
import MeterWire

/// The idempotency key of a ping that carries no `pingid` (the original SDKs send none): derived
/// from its content, so that the same ping delivered twice is credited once.
///
/// It is `h` followed by the first 32 hex digits of the SHA-256 of the query without the fields a
/// retry changes (`c62` send time, `rnd` cache buster), in the order received. Two pings that
/// differ in anything else (their `c61` creation time, `c27` seconds, `c59` session…) get
/// different keys.
enum DerivedPingID {
    static let prefix = "h"
    /// Query fields a re-send changes.
    static let volatileFields: Set<Substring> = [Substring(PingField.sendTime.name), Substring(PingField.cacheBuster.name)]

    static func derive(from query: Substring) -> String {
        var hasher = SHA256()
        for part in query.split(separator: "&", omittingEmptySubsequences: true) {
            let rawName = part.prefix { $0 != "=" }
            // Compared after decoding, as ``PingQuery`` reads names: `c%362` is `c62`.
            let name: Substring = WireEncoding.decode(rawName).map { $0[...] } ?? rawName
            guard !volatileFields.contains(name) else { continue }
            hasher.update(data: Array(part.utf8))
            hasher.update(data: [UInt8(ascii: "&")])
        }
        let digest = hasher.finalize()
        return prefix + digest.prefix(16).map { byte in
            let hex = Array("0123456789abcdef".utf8)
            return String(decoding: [hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]], as: UTF8.self)
        }.joined()
    }
}
