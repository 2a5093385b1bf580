/// How ping values are written in a query: percent-encoding, with only RFC 3986 unreserved
/// characters and `,` left literal; the census decodes with the inverse, refusing broken escapes.
public enum WireEncoding {
    /// Whether `byte` stays literal.
    @inline(__always)
    public static func isLiteral(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: ","):
            true
        default:
            false
        }
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    /// Percent-encodes `value` (its UTF-8 bytes).
    public static func encode(_ value: String) -> String {
        // Most values (ids, numbers, flags) need no escape: the same string, no copy.
        guard !value.utf8.allSatisfy(isLiteral) else { return value }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(value.utf8.count + 16)
        append(value, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `value`, percent-encoded, to `bytes`.
    public static func append(_ value: String, to bytes: inout [UInt8]) {
        var value = value
        // Over the bytes in place, by index: the browser's engine is compiled for size, where
        // an iterator's every step is a call (scripts/build-browser-sdk).
        value.withUTF8 { source in
            var index = 0
            while index < source.count, isLiteral(source[index]) { index += 1 }
            // Most values (ids, numbers, flags) are literal: copied whole.
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: source[..<index]))
            while index < source.count {
                let byte = source[index]
                if isLiteral(byte) {
                    bytes.append(byte)
                } else {
                    bytes.append(UInt8(ascii: "%"))
                    bytes.append(hexDigits[Int(byte >> 4)])
                    bytes.append(hexDigits[Int(byte & 0x0F)])
                }
                index += 1
            }
        }
    }

    /// `name=value&…` with each value percent-encoded (names are the contract's and need none).
    public static func query(_ pairs: [(name: String, value: String)]) -> String {
        var bytes: [UInt8] = []
        for (index, pair) in pairs.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: "&")) }
            bytes.append(contentsOf: pair.name.utf8)
            bytes.append(UInt8(ascii: "="))
            append(pair.value, to: &bytes)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Decodes `%XX` escapes and `+` (a space); nil for a broken escape or invalid UTF-8.
    public static func decode(_ text: Substring) -> String? {
        decode(bytes: text.utf8)
    }

    /// ``decode(_:)`` over bytes: a value without `%` or `+` is only checked for UTF-8.
    public static func decode<Bytes: Collection>(bytes: Bytes) -> String? where Bytes.Element == UInt8 {
        decode(bytes: bytes, droppingPrefix: [])
    }

    /// ``decode(bytes:)`` without `prefix` (compared after decoding): nil also when the decoded
    /// value does not start with it. Written for the census, which reads `c27=cln%2C60` as `60`
    /// without building `cln,60` first.
    public static func decode<Bytes: Collection>(bytes: Bytes, droppingPrefix prefix: [UInt8]) -> String?
    where Bytes.Element == UInt8 {
        guard bytes.contains(where: { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "+") }) else {
            guard bytes.starts(with: prefix) else { return nil }
            return validUTF8(bytes.dropFirst(prefix.count))
        }
        var decoded: [UInt8] = []
        decoded.reserveCapacity(bytes.count)
        var iterator = bytes.makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "%"):
                guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue)
                else { return nil }
                decoded.append(high << 4 | low)
            case UInt8(ascii: "+"):
                decoded.append(UInt8(ascii: " "))
            default:
                decoded.append(byte)
            }
        }
        guard decoded.starts(with: prefix) else { return nil }
        return validUTF8(decoded[prefix.count...])
    }

    /// `bytes` as a String, or nil when they are not UTF-8. `String(validating:as:)` looked up
    /// generic metadata on every call (a tenth of the census's read of a ping); decoding with
    /// repair and checking that nothing was repaired gives the same answer.
    private static func validUTF8<Bytes: Collection>(_ bytes: Bytes) -> String? where Bytes.Element == UInt8 {
        if let result = bytes.withContiguousStorageIfAvailable({ buffer -> String? in
            let string = String(decoding: buffer, as: UTF8.self)
            // ASCII is UTF-8 as it is; anything else must come out byte for byte unrepaired.
            return buffer.allSatisfy({ $0 < 0x80 }) || string.utf8.elementsEqual(buffer) ? string : nil
        }) {
            return result
        }
        let string = String(decoding: bytes, as: UTF8.self)
        return string.utf8.elementsEqual(bytes) ? string : nil
    }

    /// Whether `byte` is a hex digit (of a `%XX` escape).
    @inline(__always)
    public static func isHexDigit(_ byte: UInt8) -> Bool {
        hexValue(byte) != nil
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
