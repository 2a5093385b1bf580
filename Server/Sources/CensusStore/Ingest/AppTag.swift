import Crypto
import NIOConcurrencyHelpers

/// The 16 hex digits that scope a ping id to its app in storage (``PingKey``): the start of the
/// SHA-256 of the appid.
///
/// A census takes pings of few apps, each many times a second, so the last few tags are kept:
/// each ping's key is then one dictionary lookup, not a hash.
enum AppTag {
    /// How many appids' tags are kept; past it the cache starts over (a sender choosing a new
    /// appid per ping costs a hash per ping, never memory).
    static let cachedApps = 64

    private static let cache = NIOLockedValueBox<[String: String]>([:])

    /// The tag of `appID`.
    static func of(_ appID: String) -> String {
        if let tag = cache.withLockedValue({ $0[appID] }) { return tag }
        let tag = digest(appID)
        cache.withLockedValue { tags in
            if tags.count >= cachedApps { tags.removeAll(keepingCapacity: true) }
            tags[appID] = tag
        }
        return tag
    }

    /// The first 8 bytes of the SHA-256 of `appID`'s UTF-8, in lowercase hex.
    static func digest(_ appID: String) -> String {
        let hex = Array("0123456789abcdef".utf8)
        var digits: [UInt8] = []
        digits.reserveCapacity(16)
        for byte in SHA256.hash(data: Array(appID.utf8)).prefix(8) {
            digits.append(hex[Int(byte >> 4)])
            digits.append(hex[Int(byte & 0x0F)])
        }
        return String(decoding: digits, as: UTF8.self)
    }
}
