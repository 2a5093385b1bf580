/// A coding the census keeps a browser file in besides the file itself (census-decisions S56).
enum ContentCoding: String, Sendable, CaseIterable {
    /// Brotli (RFC 7932), which Chromium asks for over HTTPS only: a sixth smaller than gzip here.
    case brotli = "br"
    /// gzip (RFC 1952), which every browser asks for.
    case gzip
}

/// Which coding a request's `Accept-Encoding` prefers among those a file is kept in (RFC 9110
/// §12.5.3): the one it weighs highest above zero, a coding it does not list weighing what `*`
/// does. No header, or every kept coding refused (`gzip;q=0`), gets the file as it is.
///
/// The header comes from the network: it is read once, left to right, keeping three weights, so
/// any length the HTTP parser lets through costs a linear scan.
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
            let weight = parts.count > 1 ? thousandths(parts[1]) : 1000
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

    /// The weight given in a coding's parameters, in thousandths: 0 only for `q=0` (`0`, `0.`,
    /// `0.000`); `0.5` is 500, a weight below a thousandth (`0.0001`) 1, and a weight that is not
    /// `0…` (`1`, `1.000`, or not a number, which no browser sends) 1000.
    private static func thousandths<S: BidirectionalCollection<UInt8>>(_ parameters: S) -> Int {
        for parameter in parameters.split(separator: UInt8(ascii: ";")) {
            let pair = parameter.split(separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false)
            guard pair.count == 2, equalsIgnoringCase(trimmed(pair[0]), "q") else { continue }
            let value = trimmed(pair[1])
            guard value.first == UInt8(ascii: "0") else { return 1000 }
            var weight = 0
            var digits = 0
            var beyond = false
            for byte in value.dropFirst() where byte != UInt8(ascii: ".") {
                let digit = Int(byte) - Int(UInt8(ascii: "0"))
                guard (0...9).contains(digit) else { return 1000 }
                if digits < 3 {
                    weight = weight * 10 + digit
                    digits += 1
                } else if digit != 0 {
                    beyond = true
                }
            }
            for _ in digits..<3 { weight *= 10 }
            return weight == 0 && beyond ? 1 : weight
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
