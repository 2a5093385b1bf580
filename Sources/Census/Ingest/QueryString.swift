/// Splits a URL query string into decoded name/value pairs, in order.
///
/// Written by hand rather than through `URLComponents` because the census must never trust its
/// input: a malformed escape becomes a rejection reason, not a crash or a silent substitution.
enum QueryString {
    enum Failure: Error, Equatable {
        case badEscape(name: String)
    }

    static func parse(_ query: Substring) -> Result<[(name: String, value: String)], Failure> {
        var pairs: [(name: String, value: String)] = []
        for part in query.split(separator: "&", omittingEmptySubsequences: true) {
            let halves = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let rawName = halves[0]
            let rawValue = halves.count > 1 ? halves[1] : ""
            guard let name = percentDecode(rawName) else { return .failure(.badEscape(name: String(rawName))) }
            guard let value = percentDecode(rawValue) else { return .failure(.badEscape(name: name)) }
            pairs.append((name, value))
        }
        return .success(pairs)
    }

    /// Decodes `%XX` escapes and `+` (as a space); nil for a broken escape or invalid UTF-8.
    static func percentDecode(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "%"):
                guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue)
                else { return nil }
                bytes.append(high << 4 | low)
            case UInt8(ascii: "+"):
                bytes.append(UInt8(ascii: " "))
            default:
                bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
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
