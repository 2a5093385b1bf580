
/// CRC-32 (IEEE 802.3), for detecting damaged queue records.
package enum CRC32 {
    /// Slicing-by-8 tables: `tables[0]` is the classic byte table; `tables[k][b]` is the CRC of
    /// byte `b` followed by `k` zero bytes, so eight bytes are folded in per step.
    private static let tables: [UInt32] = {
        var tables = [UInt32](repeating: 0, count: 8 * 256)
        for index in 0..<256 {
            tables[index] = (0..<8).reduce(UInt32(index)) { crc, _ in crc & 1 == 1 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
        }
        for slice in 1..<8 {
            for index in 0..<256 {
                let previous = tables[(slice - 1) * 256 + index]
                tables[slice * 256 + index] = tables[Int(previous & 0xFF)] ^ (previous >> 8)
            }
        }
        return tables
    }()

    /// The checksum of `data`.
    package static func checksum<Bytes: Sequence<UInt8>>(_ data: Bytes) -> UInt32 {
        if let crc = data.withContiguousStorageIfAvailable({ checksum(UnsafeRawBufferPointer($0)) }) { return crc }
        return Array(data).withUnsafeBytes { checksum($0) }
    }

    /// The checksum of what had the checksum `previous` (0: nothing) followed by `bytes`.
    package static func checksum(_ bytes: UnsafeRawBufferPointer, continuing previous: UInt32 = 0) -> UInt32 {
        // Over raw bytes, eight at a time: a checkpoint (about 1 KB) is written every five seconds
        // of playback, and the byte-at-a-time loop over `Data` cost more than encoding the record.
        tables.withUnsafeBufferPointer { table in
            var crc = ~previous
            var offset = 0
            while offset + 8 <= bytes.count {
                let low = crc ^ (UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8
                    | UInt32(bytes[offset + 2]) << 16 | UInt32(bytes[offset + 3]) << 24)
                crc = table[7 * 256 + Int(low & 0xFF)] ^ table[6 * 256 + Int(low >> 8 & 0xFF)]
                    ^ table[5 * 256 + Int(low >> 16 & 0xFF)] ^ table[4 * 256 + Int(low >> 24)]
                    ^ table[3 * 256 + Int(bytes[offset + 4])] ^ table[2 * 256 + Int(bytes[offset + 5])]
                    ^ table[1 * 256 + Int(bytes[offset + 6])] ^ table[Int(bytes[offset + 7])]
                offset += 8
            }
            while offset < bytes.count {
                crc = table[Int((crc ^ UInt32(bytes[offset])) & 0xFF)] ^ (crc >> 8)
                offset += 1
            }
            return ~crc
        }
    }
}
