import MeterWire

/// The body of a stored record in format 2 (``PingRecordCodec``): written into one byte buffer
/// without an encoder, read back with every length checked against what is there.
///
/// Layout: a flags byte (1: recovered, 2: has a body, 4: has a route); the ping's id, kind,
/// asset kind and asset id as strings; its credited seconds (Int64) and creation time (Double bit
/// pattern), 8 bytes little-endian each; the body and the route when flagged; the parameter count
/// and each parameter's name and value. A string is its UTF-8 length (LEB128) and its bytes.
enum PingRecordBody {
    private static let recovered: UInt8 = 1, hasBody: UInt8 = 2, hasRoute: UInt8 = 4

    /// Appends `record`'s body to `bytes`.
    static func write(_ record: PingRecord, to bytes: inout [UInt8]) {
        let ping = record.ping
        bytes.append((record.recovered ? recovered : 0) | (record.body != nil ? hasBody : 0) | (record.route != nil ? hasRoute : 0))
        write(ping.id, to: &bytes)
        write(ping.kind.rawValue, to: &bytes)
        write(ping.assetKind.rawValue, to: &bytes)
        write(ping.assetID, to: &bytes)
        write(UInt64(bitPattern: ping.creditedSeconds), to: &bytes)
        write(ping.createdAt.bitPattern, to: &bytes)
        if let body = record.body { write(body, to: &bytes) }
        if let route = record.route { write(route, to: &bytes) }
        writeLength(ping.parameters.count, to: &bytes)
        for parameter in ping.parameters {
            write(parameter.name, to: &bytes)
            write(parameter.value, to: &bytes)
        }
    }

    /// The record in `body`, or nil when it is not a whole, well-formed body.
    static func read(_ body: UnsafeRawBufferPointer) -> PingRecord? {
        var reader = Reader(bytes: body)
        guard let flags = reader.byte(), flags & ~(recovered | hasBody | hasRoute) == 0,
              let id = reader.string(), let kind = reader.string().flatMap(PingKind.init(rawValue:)),
              let assetKind = reader.string().flatMap(AssetKind.init(rawValue:)), let assetID = reader.string(),
              let credited = reader.uint64(), let created = reader.uint64()
        else { return nil }
        var recordBody: String?, route: String?
        if flags & hasBody != 0 { guard let value = reader.string() else { return nil }; recordBody = value }
        if flags & hasRoute != 0 { guard let value = reader.string() else { return nil }; route = value }
        // Each parameter takes at least two bytes: a larger count is damage, not a reason to allocate.
        guard let count = reader.length(), count <= reader.remaining / 2 else { return nil }
        var parameters: [PingParameter] = []
        parameters.reserveCapacity(count)
        for _ in 0..<count {
            guard let name = reader.string(), let value = reader.string() else { return nil }
            parameters.append(PingParameter(name, value))
        }
        guard reader.remaining == 0 else { return nil }
        let ping = Ping(id: id, kind: kind, assetKind: assetKind, assetID: assetID,
                        creditedSeconds: Int64(bitPattern: credited), createdAt: Double(bitPattern: created),
                        parameters: parameters)
        return PingRecord(ping: ping, recovered: flags & recovered != 0, body: recordBody, route: route)
    }

    private static func write(_ string: String, to bytes: inout [UInt8]) {
        writeLength(string.utf8.count, to: &bytes)
        // A native string's bytes in one copy; others (bridged) byte by byte.
        if string.utf8.withContiguousStorageIfAvailable({ bytes.append(contentsOf: $0) }) == nil {
            bytes.append(contentsOf: string.utf8)
        }
    }

    private static func write(_ value: UInt64, to bytes: inout [UInt8]) {
        for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }

    private static func writeLength(_ length: Int, to bytes: inout [UInt8]) {
        var rest = UInt64(length)
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    /// Reads a body front to back; every read returns nil past its end.
    private struct Reader {
        let bytes: UnsafeRawBufferPointer
        var offset = 0
        var remaining: Int { bytes.count - offset }

        mutating func byte() -> UInt8? {
            guard offset < bytes.count else { return nil }
            defer { offset += 1 }
            return bytes[offset]
        }

        mutating func uint64() -> UInt64? {
            guard remaining >= 8 else { return nil }
            defer { offset += 8 }
            return (0..<8).reduce(UInt64(0)) { $0 | UInt64(bytes[offset + $1]) << UInt64(8 * $1) }
        }

        /// A LEB128 length of at most 4 bytes (a record never holds 256 MB).
        mutating func length() -> Int? {
            var value = 0
            for shift in stride(from: 0, to: 28, by: 7) {
                guard let next = byte() else { return nil }
                value |= Int(next & 0x7F) << shift
                if next & 0x80 == 0 { return value }
            }
            return nil
        }

        mutating func string() -> String? {
            guard let count = length(), count <= remaining else { return nil }
            defer { offset += count }
            return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + count]), as: UTF8.self)
        }
    }
}
