package import MeterContract

/// What a value may be on the wire, applied when a ping is built, so that every send of it (and
/// the viewability ping that copies its fields) says the same thing (docs/protocol.md §2 "Length").
package enum PingValueRules {
    /// `value` as parameter `field` carries it: without NUL characters, which the census refuses
    /// (decision S8) and no metadata needs, and, for the asset id, within
    /// ``WireLimits/sdkMaxAssetIDBytes``.
    package static func wireValue(_ field: PingField, _ value: String) -> String {
        let clean = hasNUL(value) ? String(String.UnicodeScalarView(value.unicodeScalars.filter { $0 != "\0" })) : value
        return field == .assetID ? boundedAssetID(clean) : clean
    }

    /// Whether `value` holds a NUL: over its contiguous bytes when it has them (every native
    /// string does), not through the generic `contains`, which was a byte at a time.
    private static func hasNUL(_ value: String) -> Bool {
        value.utf8.withContiguousStorageIfAvailable { bytes in
            var index = 0
            while index < bytes.count {
                if bytes[index] == 0 { return true }
                index += 1
            }
            return false
        } ?? value.utf8.contains(0)
    }

    /// `id` itself when it fits ``WireLimits/sdkMaxAssetIDBytes``; else its longest prefix of whole
    /// characters that leaves room for `~` and the CRC-32 of the whole id in eight hex digits. The
    /// same id always gives the same value, so its seconds all go to one asset.
    package static func boundedAssetID(_ id: String) -> String {
        guard id.utf8.count > WireLimits.sdkMaxAssetIDBytes else { return id }
        let room = WireLimits.sdkMaxAssetIDBytes - WireLimits.assetIDDigestLength
        var end = id.startIndex
        var bytes = 0
        for character in id {
            bytes += character.utf8.count
            guard bytes <= room else { break }
            end = id.index(after: end)
        }
        let digest = String(CRC32.checksum(id.utf8), radix: 16)
        return id[..<end] + "~" + String(repeating: "0", count: 8 - digest.count) + digest
    }
}
