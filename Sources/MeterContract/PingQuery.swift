/// A ping's query read once over its bytes (docs/census.md §4): every `%` escape is checked,
/// each ``PingField`` is located by its decoded name (a field given twice must have one value), and only the fields a reader asks for
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
        // A native string's bytes are contiguous: one copy, not an iteration byte by byte.
        let bytes = query.utf8.withContiguousStorageIfAvailable { Array($0) } ?? Array(query.utf8)
        var ranges = [Range<Int>?](repeating: nil, count: Self.fieldCount)
        if let problem = bytes.withUnsafeBufferPointer({ locateFields(in: $0, into: &ranges) }) {
            return .failure(problem)
        }
        return .success(PingQuery(bytes: bytes, ranges: ranges))
    }

    /// The decoded value of `field` (its first occurrence), or nil when absent.
    public func value(_ field: PingField) -> String? {
        guard let range = ranges[FieldNameTable.fields.ordinal(of: field)] else { return nil }
        return WireEncoding.decode(bytes: bytes[range])
    }

    /// Whether `field` is present (possibly empty).
    public func contains(_ field: PingField) -> Bool {
        ranges[FieldNameTable.fields.ordinal(of: field)] != nil
    }

    /// The value of `field` without its ``PingField/prefix``; nil when absent or without the prefix.
    public func unprefixedValue(_ field: PingField) -> String? {
        let ordinal = FieldNameTable.fields.ordinal(of: field)
        guard let range = ranges[ordinal] else { return nil }
        return WireEncoding.decode(bytes: bytes[range], droppingPrefix: Self.prefixes[ordinal])
    }

    /// Checks every escape of `bytes` and records the value range of each field's first
    /// occurrence in `ranges`. Over a buffer pointer, without a bounds check on each byte: the
    /// census reads every byte of every ping here, and the checks were about an eighth of this
    /// loop's time (1.6 against 1.4 µs for a 900-byte ping, from `perf`).
    private static func locateFields(in bytes: UnsafeBufferPointer<UInt8>, into ranges: inout [Range<Int>?]) -> Problem? {
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
                    guard end + 2 < count, WireEncoding.isHexDigit(bytes[end + 1]), WireEncoding.isHexDigit(bytes[end + 2]) else {
                        let nameEnd = equals < 0 ? end : equals
                        return malformed(bytes[start..<nameEnd])
                    }
                    if bytes[end + 1] == UInt8(ascii: "0") && bytes[end + 2] == UInt8(ascii: "0") {
                        return nul(inParameterAt: start, of: bytes)
                    }
                    if equals < 0 { escaped = true }
                    if bytes[end + 1] >= UInt8(ascii: "8") { nonASCIIEscape = true }
                    end += 2
                case 0: return nul(inParameterAt: start, of: bytes)
                default: break
                }
                end += 1
            }
            if end > start {
                let nameEnd = equals < 0 ? end : equals
                let valueStart = equals < 0 ? end : equals + 1
                // Escaped bytes of 0x80 and above must make UTF-8, in every parameter.
                if nonASCIIEscape, WireEncoding.decode(bytes: bytes[start..<nameEnd]) == nil || WireEncoding.decode(bytes: bytes[valueStart..<end]) == nil {
                    return malformed(bytes[start..<nameEnd])
                }
                if let ordinal = ordinal(ofName: UnsafeBufferPointer(rebasing: bytes[start..<nameEnd]), escaped: escaped) {
                    if let first = ranges[ordinal] {
                        // Names are compared after decoding, so `%63%31%33` is `c13`: a second
                        // `c13` (or any field) with another value makes the ping mean two things,
                        // and no reader may pick one (the same value twice is harmless).
                        if WireEncoding.decode(bytes: bytes[first]) != WireEncoding.decode(bytes: bytes[valueStart..<end]) {
                            return Problem(reason: "parameter \(PingField.allCases[ordinal].name) appears twice with different values")
                        }
                    } else {
                        ranges[ordinal] = valueStart..<end
                    }
                }
            }
            start = end + 1
        }
        return nil
    }

    /// The refusal for a parameter named `name` with a broken escape.
    private static func malformed(_ name: Slice<UnsafeBufferPointer<UInt8>>) -> Problem {
        Problem(reason: "parameter \(shown(name)) has a malformed percent escape")
    }

    /// The refusal for a NUL, raw or `%00`, in the parameter named `name`: no SDK sends one, and
    /// PostgreSQL's text cannot hold it (a stored column with one would fail its whole batch).
    private static func nul(inParameterAt start: Int, of bytes: UnsafeBufferPointer<UInt8>) -> Problem {
        let name = bytes[start...].prefix { $0 != UInt8(ascii: "=") && $0 != UInt8(ascii: "&") }
        return Problem(reason: "parameter \(shown(name)) contains a NUL byte")
    }

    /// `name` for a reason: decoded when it decodes, else as sent; a NUL shown as `%00`.
    private static func shown(_ name: Slice<UnsafeBufferPointer<UInt8>>) -> String {
        let text = WireEncoding.decode(bytes: name) ?? String(decoding: name, as: UTF8.self)
        guard text.utf8.contains(0) else { return text }
        return text.unicodeScalars.reduce(into: "") { shown, scalar in
            if scalar == "\u{0}" { shown += "%00" } else { shown.unicodeScalars.append(scalar) }
        }
    }

    // MARK: Names

    private static let fieldCount = PingField.allCases.count
    /// Each field's ``PingField/prefix`` as bytes, by ordinal.
    private static let prefixes = PingField.allCases.map { Array($0.prefix.utf8) }

    private static func ordinal(ofName name: UnsafeBufferPointer<UInt8>, escaped: Bool) -> Int? {
        if escaped {
            // A name written with escapes (no SDK does this): decode it first.
            guard let decoded = WireEncoding.decode(bytes: name), let field = PingField(rawValue: decoded) else { return nil }
            return FieldNameTable.fields.ordinal(of: field)
        }
        return FieldNameTable.PackedName(name).flatMap { FieldNameTable.fields.ordinal(of: $0) }
    }
}
