/// Reads ID3v2.3 and ID3v2.4 tags from raw bytes — what a player without AVFoundation (a Linux
/// set-top box, a server-side stitcher) finds in a stream — and returns the owner identifiers of
/// their PRIV frames, which is what `sendID3` takes.
///
/// It reads only what it needs, checks every length against the bytes it has, and never traps:
/// damaged input is a ``WireFormatError``.
public enum ID3v2 {
    /// The owner identifiers of every PRIV frame in `tag`, in order.
    public static func privOwners(in tag: [UInt8]) -> Result<[String], WireFormatError> {
        guard tag.count >= 10, tag[0] == UInt8(ascii: "I"), tag[1] == UInt8(ascii: "D"), tag[2] == UInt8(ascii: "3") else {
            return .failure(WireFormatError("not an ID3v2 tag (no \"ID3\" header)"))
        }
        let major = tag[3]
        guard major == 3 || major == 4 else {
            return .failure(WireFormatError("ID3v2.\(major) is not supported (2.3 and 2.4 are)"))
        }
        let flags = tag[5]
        guard let size = syncsafe(tag, at: 6) else { return .failure(WireFormatError("the ID3 tag size is not syncsafe")) }
        guard 10 + size <= tag.count else {
            return .failure(WireFormatError("the ID3 tag says \(size) bytes but \(tag.count - 10) follow the header"))
        }
        var body = Array(tag[10..<(10 + size)])
        if flags & 0x80 != 0 && major == 3 { body = removingUnsynchronisation(body) }
        var position = 0
        if flags & 0x40 != 0 {
            // Extended header: v2.3 gives its size without these 4 bytes, v2.4 a syncsafe size with them.
            guard body.count >= 4 else { return .failure(WireFormatError("the ID3 extended header is cut short")) }
            let length = major == 4 ? syncsafe(body, at: 0) : Int(bigEndian(body, at: 0)) + 4
            guard let length, length >= 4, length <= body.count else {
                return .failure(WireFormatError("the ID3 extended header size is invalid"))
            }
            position = length
        }
        var owners: [String] = []
        while position + 10 <= body.count {
            let id = body[position..<(position + 4)]
            if id.allSatisfy({ $0 == 0 }) { break }   // padding
            guard let frameSize = major == 4 ? syncsafe(body, at: position + 4) : Int(bigEndian(body, at: position + 4)) else {
                return .failure(WireFormatError("an ID3 frame size is not syncsafe"))
            }
            let start = position + 10
            guard frameSize >= 0, start + frameSize <= body.count else {
                return .failure(WireFormatError("an ID3 frame of \(frameSize) bytes runs past the end of the tag"))
            }
            if id.elementsEqual("PRIV".utf8) {
                let data = body[start..<(start + frameSize)]
                let owner = data.prefix { $0 != 0 }
                owners.append(String(decoding: owner, as: UTF8.self))
            }
            position = start + frameSize
        }
        return .success(owners)
    }

    /// The Nielsen owner strings of `tag` (PRIV owners starting with `www.nielsen.com`).
    public static func nielsenOwners(in tag: [UInt8]) -> Result<[String], WireFormatError> {
        privOwners(in: tag).map { $0.filter(NielsenID3Tag.isNielsen) }
    }

    static func syncsafe(_ bytes: [UInt8], at index: Int) -> Int? {
        guard index >= 0, index + 4 <= bytes.count else { return nil }
        var value = 0
        for byte in bytes[index..<(index + 4)] {
            guard byte & 0x80 == 0 else { return nil }
            value = value << 7 | Int(byte)
        }
        return value
    }

    static func bigEndian(_ bytes: [UInt8], at index: Int) -> UInt32 {
        guard index >= 0, index + 4 <= bytes.count else { return UInt32.max }
        return bytes[index..<(index + 4)].reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// Undoes ID3 unsynchronisation: a 0x00 inserted after each 0xFF is dropped.
    static func removingUnsynchronisation(_ bytes: [UInt8]) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var previous: UInt8 = 0
        for byte in bytes {
            if !(previous == 0xFF && byte == 0x00) { result.append(byte) }
            previous = byte
        }
        return result
    }
}
