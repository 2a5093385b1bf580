extension PingQuery {
    /// The value of `field`'s first parameter in `query` as sent, its ``PingField/prefix``
    /// dropped (the prefix's closing `,` may come as `%2C`), at most `limit` bytes of it; nil when
    /// no parameter so named carries the prefix. For a request already refused, which ``parse(_:)``
    /// may not read (a broken escape, a NUL, a field given twice with two values): the census learns
    /// from it which app's quota the refusal counts against. Nothing is decoded or refused, and a
    /// name counts only spelled as ``PingField/name``.
    public static func leniently(_ field: PingField, in query: Substring, limit: Int) -> String? {
        // One pass over contiguous bytes: a flood of refusals comes through here, each up to 8 KB.
        query.utf8.withContiguousStorageIfAvailable { lenientValue(field, in: $0, limit: limit) }
            ?? Array(query.utf8).withUnsafeBufferPointer { lenientValue(field, in: $0, limit: limit) }
    }

    /// Each field's name and ``PingField/prefix`` as bytes, by ordinal.
    private static let lenientNames = PingField.allCases.map { Array($0.name.utf8) }
    private static let lenientPrefixes = PingField.allCases.map { Array($0.prefix.utf8) }

    private static func lenientValue(_ field: PingField, in bytes: UnsafeBufferPointer<UInt8>, limit: Int) -> String? {
        let ordinal = FieldNameTable.fields.ordinal(of: field)
        let name = lenientNames[ordinal], prefix = lenientPrefixes[ordinal]
        var start = 0
        while start < bytes.count {
            var end = start
            while end < bytes.count, bytes[end] != UInt8(ascii: "&") { end += 1 }
            if let value = value(of: bytes[start..<end], named: name, after: prefix) {
                let end = value.count > limit ? value.lowerBound + max(0, limit) : value.upperBound
                return String(decoding: UnsafeBufferPointer(rebasing: bytes[value.lowerBound..<end]), as: UTF8.self)
            }
            start = end + 1
        }
        return nil
    }

    /// The range of `parameter`'s value after `prefix` when it is named `name`; a prefix ending
    /// in `,` may end in `%2C` (or `%2c`) instead.
    private static func value(of parameter: Slice<UnsafeBufferPointer<UInt8>>, named name: [UInt8], after prefix: [UInt8]) -> Range<Int>? {
        var index = parameter.startIndex
        for byte in name {
            guard index < parameter.endIndex, parameter[index] == byte else { return nil }
            index += 1
        }
        guard index < parameter.endIndex, parameter[index] == UInt8(ascii: "=") else { return nil }
        index += 1
        for (offset, byte) in prefix.enumerated() {
            if offset == prefix.count - 1, byte == UInt8(ascii: ","), index + 2 < parameter.endIndex,
               parameter[index] == UInt8(ascii: "%"), parameter[index + 1] == UInt8(ascii: "2"), parameter[index + 2] | 0x20 == UInt8(ascii: "c") {
                return (index + 3)..<parameter.endIndex
            }
            guard index < parameter.endIndex, parameter[index] == byte else { return nil }
            index += 1
        }
        return index..<parameter.endIndex
    }
}
