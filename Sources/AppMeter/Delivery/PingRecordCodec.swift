package import Foundation

/// The stored form of a record: a magic line naming the format, the CRC-32 of the body, and the
/// body. Anything else — a torn write, a truncated file, flipped bits — fails to decode and is
/// skipped.
///
/// Records are written in format 2 (``PingRecordBody``: length-prefixed binary, built in one
/// buffer) and read in format 2 or 1 (a JSON body with its CRC in hex), so pings queued by an
/// earlier version of the SDK are still sent after an update. A checkpoint is written every few
/// seconds of playback: format 1's `JSONEncoder` was two thirds of an hour of viewing's CPU.
package enum PingRecordCodec {
    /// Format 2: the magic line, the CRC-32 of the body (4 bytes, big-endian), the binary body.
    static let magic = Array("APPMETER-PING-2\n".utf8)
    /// Format 1: the magic line, the CRC-32 of the body (8 hex digits and a newline), the JSON body.
    static let legacyMagic = Array("APPMETER-PING-1\n".utf8)

    /// The record's stored bytes, in format 2.
    package static func encode(_ record: PingRecord) -> Data {
        let bodyStart = magic.count + 4
        var data = Data(count: bodyStart + PingRecordBody.size(of: record))
        data.withUnsafeMutableBytes { bytes in
            bytes.copyBytes(from: magic)
            let body = UnsafeMutableRawBufferPointer(rebasing: bytes[bodyStart...])
            PingRecordBody.write(record, into: body)
            let crc = CRC32.checksum(UnsafeRawBufferPointer(body))
            for index in 0..<4 { bytes[magic.count + index] = UInt8(truncatingIfNeeded: crc >> (24 - 8 * index)) }
        }
        return data
    }

    /// The record stored in `data` (format 2 or 1), or nil when it is damaged or not a record.
    package static func decode(_ data: Data) -> PingRecord? {
        let bytes = [UInt8](data)
        if bytes.starts(with: magic) { return decodeBinary(bytes) }
        if bytes.starts(with: legacyMagic) { return decodeLegacy(bytes) }
        return nil
    }

    private static func decodeBinary(_ bytes: [UInt8]) -> PingRecord? {
        let bodyStart = magic.count + 4
        guard bytes.count > bodyStart else { return nil }
        let expected = bytes[magic.count..<bodyStart].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        return bytes.withUnsafeBytes { raw -> PingRecord? in
            let body = UnsafeRawBufferPointer(rebasing: raw[bodyStart...])
            guard CRC32.checksum(body) == expected else { return nil }
            return PingRecordBody.read(body)
        }
    }

    private static func decodeLegacy(_ bytes: [UInt8]) -> PingRecord? {
        let bodyStart = legacyMagic.count + 9
        guard bytes.count > bodyStart, bytes[bodyStart - 1] == UInt8(ascii: "\n"),
              let expected = UInt32(String(decoding: bytes[legacyMagic.count..<bodyStart - 1], as: UTF8.self), radix: 16)
        else { return nil }
        let body = bytes[bodyStart...]
        guard CRC32.checksum(body) == expected else { return nil }
        return try? JSONDecoder().decode(PingRecord.self, from: Data(body))
    }
}
