/// A Nielsen ID3 tag, as the owner identifier of its PRIV frame:
/// `www.nielsen.com/<PC CID>/<FD CID>/<payload>/<PC offset>/<FD offset>/<breakout>` (about 249
/// characters). PC is the program content's owner, FD the final distributor (station or network);
/// a CID identifies a broadcast day of a source and an offset the seconds into that day.
public struct NielsenID3Tag: Sendable, Hashable {
    /// What every Nielsen owner string starts with.
    public static let prefix = "www.nielsen.com/"
    /// The CID of "no source" (Nielsen's public ID3 tag documentation).
    public static let nullCID = "X100zdCIGeIlgZnkYj6UvQ=="
    /// The longest owner string taken (the guides: about 249 characters).
    public static let maxLength = 512

    /// The owner string as received (trailing NULs removed).
    public let ownerString: String
    /// Program content CID; nil when null.
    public let pcCID: String?
    /// Final distributor CID; nil when null.
    public let fdCID: String?
    /// The encrypted watermark payload.
    public let payload: String
    /// Seconds into the PC broadcast day; nil when the PC CID is null.
    public let pcOffset: Int?
    /// Seconds into the FD broadcast day; nil when the FD CID is null.
    public let fdOffset: Int?
    /// Two digits, `00` from transcoders.
    public let breakout: String

    /// The CID crediting follows: the final distributor's, else the program content's.
    public var creditCID: String? { fdCID ?? pcCID }
    /// The offset that goes with ``creditCID``.
    public var creditOffset: Int? { fdCID != nil ? fdOffset : pcOffset }

    /// Whether `text` is a Nielsen owner string at all (what the guides filter on); anything else
    /// a player hands over is not for Nielsen and is ignored without a word.
    public static func isNielsen(_ text: String) -> Bool {
        text.utf8.starts(with: "www.nielsen.com".utf8)
    }

    /// Reads a Nielsen owner string; the failure says which part is wrong.
    public static func parse(_ text: String) -> Result<NielsenID3Tag, WireFormatError> {
        var owner = Substring(text)
        while owner.last == "\0" { owner = owner.dropLast() }
        guard owner.utf8.count <= maxLength else {
            return .failure(WireFormatError("the Nielsen ID3 tag is \(owner.utf8.count) bytes; at most \(maxLength)"))
        }
        guard owner.hasPrefix(prefix) else {
            return .failure(WireFormatError("the Nielsen ID3 tag does not start with \(prefix)"))
        }
        let fields = owner.dropFirst(prefix.count).split(separator: "/", omittingEmptySubsequences: false)
        guard fields.count == 6 else {
            return .failure(WireFormatError("the Nielsen ID3 tag has \(fields.count) fields after \(prefix); 6 expected (PC CID/FD CID/payload/PC offset/FD offset/breakout)"))
        }
        for (index, name) in [(0, "PC CID"), (1, "FD CID")] where !isCID(fields[index]) {
            return .failure(WireFormatError("the Nielsen ID3 tag's \(name) \"\(fields[index].prefix(40))\" is not a 24-character CID"))
        }
        guard !fields[2].isEmpty, fields[2].utf8.allSatisfy(isBase64URL) else {
            return .failure(WireFormatError("the Nielsen ID3 tag's payload is empty or not base64"))
        }
        for (index, name) in [(3, "PC offset"), (4, "FD offset")] where !isDigits(fields[index], count: 5) {
            return .failure(WireFormatError("the Nielsen ID3 tag's \(name) \"\(fields[index].prefix(10))\" is not 5 digits"))
        }
        guard isDigits(fields[5], count: 2) else {
            return .failure(WireFormatError("the Nielsen ID3 tag's breakout \"\(fields[5].prefix(10))\" is not 2 digits"))
        }
        let pc = fields[0] == nullCID ? nil : String(fields[0])
        let fd = fields[1] == nullCID ? nil : String(fields[1])
        return .success(NielsenID3Tag(
            ownerString: String(owner), pcCID: pc, fdCID: fd, payload: String(fields[2]),
            pcOffset: pc == nil ? nil : Int(fields[3]), fdOffset: fd == nil ? nil : Int(fields[4]),
            breakout: String(fields[5])))
    }

    private static func isCID(_ field: Substring) -> Bool {
        field.utf8.count == 24 && field.utf8.allSatisfy(isBase64URL)
    }

    private static func isDigits(_ field: Substring, count: Int) -> Bool {
        field.utf8.count == count && field.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }

    private static func isBase64URL(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "+"), UInt8(ascii: "="):
            true
        default:
            false
        }
    }
}
