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
        for byte in value.utf8 {
            if isLiteral(byte) {
                bytes.append(byte)
            } else {
                bytes.append(UInt8(ascii: "%"))
                bytes.append(hexDigits[Int(byte >> 4)])
                bytes.append(hexDigits[Int(byte & 0x0F)])
            }
        }
    }

    /// Decodes `%XX` escapes and `+` (a space); nil for a broken escape or invalid UTF-8.
    public static func decode(_ text: Substring) -> String? {
        decode(bytes: text.utf8)
    }

    /// ``decode(_:)`` over bytes: a value without `%` or `+` is only checked for UTF-8.
    public static func decode<Bytes: Collection>(bytes: Bytes) -> String? where Bytes.Element == UInt8 {
        guard bytes.contains(where: { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "+") }) else {
            return String(validating: bytes, as: UTF8.self)
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
        return String(validating: decoded, as: UTF8.self)
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
