/// Whether a request's `Accept-Encoding` admits a gzip-compressed answer (RFC 9110 §12.5.3):
/// `gzip` or `x-gzip` listed with a weight above zero, or `*` above zero when gzip is not listed
/// at all. No header, or gzip refused (`gzip;q=0`), gets the file as it is.
///
/// The header comes from the network: it is read once, left to right, without building anything
/// from it, so any length the HTTP parser lets through costs a linear scan.
enum AcceptEncoding {
    static func admitsGzip(_ header: String?) -> Bool {
        guard let header else { return false }
        var gzip: Bool?
        var anything: Bool?
        for member in header.utf8.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: true) {
            let parts = member.split(separator: UInt8(ascii: ";"), maxSplits: 1, omittingEmptySubsequences: false)
            let coding = trimmed(parts[0])
            let weighted = parts.count > 1 ? weightIsPositive(parts[1]) : true
            if equalsIgnoringCase(coding, "gzip") || equalsIgnoringCase(coding, "x-gzip") {
                gzip = (gzip ?? false) || weighted
            } else if coding.elementsEqual("*".utf8) {
                anything = (anything ?? false) || weighted
            }
        }
        return gzip ?? anything ?? false
    }

    /// The parameters after a coding: false only for `q=0` (`0`, `0.`, `0.000`); a weight that is
    /// not a number is taken as given, as a browser would not send one.
    private static func weightIsPositive<S: BidirectionalCollection<UInt8>>(_ parameters: S) -> Bool {
        for parameter in parameters.split(separator: UInt8(ascii: ";")) {
            let pair = parameter.split(separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false)
            guard pair.count == 2, equalsIgnoringCase(trimmed(pair[0]), "q") else { continue }
            let value = trimmed(pair[1])
            guard value.first == UInt8(ascii: "0") else { return true }
            return value.dropFirst().contains { $0 != UInt8(ascii: ".") && $0 != UInt8(ascii: "0") }
        }
        return true
    }

    private static func trimmed<S: BidirectionalCollection<UInt8>>(_ bytes: S) -> S.SubSequence {
        let isSpace = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        guard let first = bytes.firstIndex(where: { !isSpace($0) }),
              let last = bytes.lastIndex(where: { !isSpace($0) }) else { return bytes[bytes.endIndex...] }
        return bytes[first...last]
    }

    private static func equalsIgnoringCase<S: Collection<UInt8>>(_ bytes: S, _ word: StaticString) -> Bool {
        let expected = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        return bytes.count == expected.count
            && zip(bytes, expected).allSatisfy { byte, lower in
                (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 == lower : byte == lower
            }
    }
}
