/// A coding the census keeps a browser file in besides the file itself (census-decisions S56).
enum ContentCoding: String, Sendable {
    /// Brotli (RFC 7932), which Chromium asks for over HTTPS only: a sixth smaller than gzip here.
    case brotli = "br"
    /// gzip (RFC 1952), which every browser asks for.
    case gzip
}

/// Which coding a request's `Accept-Encoding` prefers among those a file is kept in (RFC 9110
/// §12.5.3): the one it weighs highest above zero, a coding it does not list weighing what `*`
/// does. No header, or every kept coding refused (`gzip;q=0`), gets the file as it is; so does a
/// header that prefers `identity` (the census never refuses the plain file, so `identity` is not
/// weighed). A member whose weight breaks the RFC's grammar (`q=-1`, `q=.5`, `q=0.1234`) is left
/// out, as if not listed.
///
/// The header comes from the network: it is read once, left to right, as slices of itself (an
/// array of them per split, no copy of the text), so any length the HTTP parser lets through
/// costs a linear scan.
enum AcceptEncoding {
    /// The coding to answer with, of `available` (the first wins between equal weights), or nil
    /// for the file as it is.
    static func preferred(_ header: String?, among available: [ContentCoding]) -> ContentCoding? {
        guard let header else { return nil }
        var brotli: Int?
        var gzip: Int?
        var anything: Int?
        for member in header.utf8.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: true) {
            let parts = member.split(separator: UInt8(ascii: ";"), maxSplits: 1, omittingEmptySubsequences: false)
            let coding = trimmed(parts[0])
            guard let weight = parts.count > 1 ? thousandths(parts[1]) : 1000 else { continue }
            // Listed twice, a coding counts with its higher weight.
            if equalsIgnoringCase(coding, "gzip") || equalsIgnoringCase(coding, "x-gzip") {
                gzip = max(gzip ?? 0, weight)
            } else if equalsIgnoringCase(coding, "br") {
                brotli = max(brotli ?? 0, weight)
            } else if coding.elementsEqual("*".utf8) {
                anything = max(anything ?? 0, weight)
            }
        }
        var best: (coding: ContentCoding, weight: Int)?
        for coding in available {
            let weight = (coding == .brotli ? brotli : gzip) ?? anything ?? 0
            if weight > (best?.weight ?? 0) { best = (coding, weight) }
        }
        return best?.coding
    }

    /// The weight given in a coding's parameters, in thousandths, as RFC 9110 §12.4.2 writes it:
    /// `0` to `0.999` or `1` to `1.000`, at most three decimals; 1000 without a `q`; nil for a
    /// weight written otherwise.
    private static func thousandths<S: BidirectionalCollection<UInt8>>(_ parameters: S) -> Int? {
        for parameter in parameters.split(separator: UInt8(ascii: ";")) {
            let pair = parameter.split(separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false)
            guard pair.count == 2, equalsIgnoringCase(trimmed(pair[0]), "q") else { continue }
            let value = trimmed(pair[1])
            guard let first = value.first, first == UInt8(ascii: "0") || first == UInt8(ascii: "1") else { return nil }
            var weight = first == UInt8(ascii: "1") ? 1000 : 0
            var rest = value.dropFirst()
            guard let dot = rest.first else { return weight }
            guard dot == UInt8(ascii: "."), rest.count <= 4 else { return nil }
            rest = rest.dropFirst()
            var scale = 100
            for byte in rest {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                weight += Int(byte - UInt8(ascii: "0")) * scale
                scale /= 10
            }
            return weight <= 1000 ? weight : nil
        }
        return 1000
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
