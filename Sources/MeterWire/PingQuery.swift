/// A ping's query read once over its bytes (docs/protocol.md §4): every `%` escape is checked,
/// the first occurrence of each ``PingField`` is located, and only the fields a reader asks for
/// are decoded into Strings. The census reads every ping this way: a 900-byte ping has some 45
/// parameters, of which it stores a dozen.
public struct PingQuery: Sendable {
    /// Why a query cannot be read.
    public struct Problem: Error, Sendable, Equatable, CustomStringConvertible {
        public let reason: String
        public var description: String { reason }

        public init(reason: String) {
            self.reason = reason
        }
    }

    private let bytes: [UInt8]
    /// The value range of each field's first occurrence, by ``PingField`` ordinal.
    private var ranges: [Range<Int>?]

    /// Reads `query` (the part after `?`).
    public static func parse(_ query: Substring) -> Result<PingQuery, Problem> {
        var parsed = PingQuery(bytes: Array(query.utf8), ranges: Array(repeating: nil, count: Self.fieldCount))
        if let problem = parsed.locateFields() { return .failure(problem) }
        return .success(parsed)
    }

    /// The decoded value of `field` (its first occurrence), or nil when absent.
    public func value(_ field: PingField) -> String? {
        guard let range = ranges[Self.ordinal[field]!] else { return nil }
        return Self.decode(bytes[range])
    }

    /// Whether `field` is present (possibly empty).
    public func contains(_ field: PingField) -> Bool {
        ranges[Self.ordinal[field]!] != nil
    }

    /// The value of `field` without its ``PingField/prefix``; nil when absent or without the prefix.
    public func unprefixedValue(_ field: PingField) -> String? {
        guard let value = value(field), value.hasPrefix(field.prefix) else { return nil }
        return String(value.dropFirst(field.prefix.count))
    }

    private mutating func locateFields() -> Problem? {
        let count = bytes.count
        var start = 0
        while start < count {
            var end = start
            var equals = -1
            var escaped = false
            var nonASCIIEscape = false
            while end < count && bytes[end] != UInt8(ascii: "&") {
                switch bytes[end] {
                case UInt8(ascii: "="): if equals < 0 { equals = end }
                case UInt8(ascii: "%"):
                    guard end + 2 < count, Self.isHex(bytes[end + 1]), Self.isHex(bytes[end + 2]) else {
                        let nameEnd = equals < 0 ? end : equals
                        let name = Self.decode(bytes[start..<nameEnd]) ?? String(decoding: bytes[start..<nameEnd], as: UTF8.self)
                        return Problem(reason: "parameter \(name) has a malformed percent escape")
                    }
                    if equals < 0 { escaped = true }
                    if bytes[end + 1] >= UInt8(ascii: "8") { nonASCIIEscape = true }
                    end += 2
                default: break
                }
                end += 1
            }
            if end > start {
                let nameEnd = equals < 0 ? end : equals
                let valueStart = equals < 0 ? end : equals + 1
                // Escaped bytes of 0x80 and above must make UTF-8, in every parameter.
                if nonASCIIEscape, Self.decode(bytes[start..<nameEnd]) == nil || Self.decode(bytes[valueStart..<end]) == nil {
                    let name = Self.decode(bytes[start..<nameEnd]) ?? String(decoding: bytes[start..<nameEnd], as: UTF8.self)
                    return Problem(reason: "parameter \(name) has a malformed percent escape")
                }
                if let ordinal = Self.ordinal(ofName: bytes[start..<nameEnd], escaped: escaped), ranges[ordinal] == nil {
                    ranges[ordinal] = valueStart..<end
                }
            }
            start = end + 1
        }
        return nil
    }

    // MARK: Names

    private static let fields = PingField.allCases
    private static let fieldCount = fields.count
    private static let ordinal: [PingField: Int] = Dictionary(uniqueKeysWithValues: fields.enumerated().map { ($1, $0) })
    /// Field names packed into two words (every name is at most 16 bytes).
    private static let byPackedName: [PackedName: Int] = Dictionary(
        uniqueKeysWithValues: fields.enumerated().map { (PackedName(Array($1.name.utf8)[...])!, $0) })

    private struct PackedName: Hashable {
        var low: UInt64 = 0
        var high: UInt64 = 0
        var count: Int

        init?(_ name: ArraySlice<UInt8>) {
            guard name.count <= 16 else { return nil }
            count = name.count
            for (offset, byte) in name.enumerated() {
                if offset < 8 { low |= UInt64(byte) << (offset * 8) } else { high |= UInt64(byte) << ((offset - 8) * 8) }
            }
        }
    }

    private static func ordinal(ofName name: ArraySlice<UInt8>, escaped: Bool) -> Int? {
        if escaped {
            // A name written with escapes (no SDK does this): decode it first.
            guard let decoded = decode(name), let field = PingField(rawValue: decoded) else { return nil }
            return ordinal[field]
        }
        return PackedName(name).flatMap { byPackedName[$0] }
    }

    // MARK: Decoding

    private static func isHex(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"), UInt8(ascii: "A")...UInt8(ascii: "F"): true
        default: false
        }
    }

    private static func hexValue(_ byte: UInt8) -> UInt8 {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        default: byte - UInt8(ascii: "A") + 10
        }
    }

    /// `%XX` and `+` decoded (a `%` not followed by two hex digits stays as it is); nil when not UTF-8.
    static func decode(_ slice: ArraySlice<UInt8>) -> String? {
        guard slice.contains(where: { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "+") }) else {
            return String(validating: slice, as: UTF8.self)
        }
        var decoded: [UInt8] = []
        decoded.reserveCapacity(slice.count)
        var index = slice.startIndex
        while index < slice.endIndex {
            let byte = slice[index]
            if byte == UInt8(ascii: "%"), index + 2 < slice.endIndex, isHex(slice[index + 1]), isHex(slice[index + 2]) {
                decoded.append(hexValue(slice[index + 1]) << 4 | hexValue(slice[index + 2]))
                index += 3
            } else {
                decoded.append(byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
                index += 1
            }
        }
        return String(validating: decoded, as: UTF8.self)
    }
}
