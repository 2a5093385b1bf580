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

    /// The number of bytes ``write(_:into:)`` writes for `record`.
    static func size(of record: PingRecord) -> Int {
        var counter = ByteCounter()
        serialize(record, to: &counter)
        return counter.count
    }

    /// Writes `record`'s body at the start of `bytes`, which holds at least ``size(of:)`` bytes.
    /// The body is sized first and written in place: a checkpoint is written every few seconds of
    /// playback, and appending to a growing array was a fifth of an hour of viewing's CPU.
    static func write(_ record: PingRecord, into bytes: UnsafeMutableRawBufferPointer) {
        var writer = ByteWriter(bytes: bytes)
        serialize(record, to: &writer)
    }

    /// The layout, written once for both the counting and the writing sink.
    private static func serialize(_ record: PingRecord, to sink: inout some ByteSink) {
        let ping = record.ping
        sink.byte((record.recovered ? recovered : 0) | (record.body != nil ? hasBody : 0) | (record.route != nil ? hasRoute : 0))
        write(ping.id, to: &sink)
        write(ping.kind.rawValue, to: &sink)
        write(ping.assetKind.rawValue, to: &sink)
        write(ping.assetID, to: &sink)
        sink.uint64(UInt64(bitPattern: ping.creditedSeconds))
        sink.uint64(ping.createdAt.bitPattern)
        if let body = record.body { write(body, to: &sink) }
        if let route = record.route { write(route, to: &sink) }
        writeLength(ping.parameters.count, to: &sink)
        for parameter in ping.parameters {
            write(parameter.name, to: &sink)
            write(parameter.value, to: &sink)
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

    @inline(__always)
    private static func write(_ string: String, to sink: inout some ByteSink) {
        writeLength(string.utf8.count, to: &sink)
        // A native string's bytes in one copy; others (bridged) byte by byte.
        if string.utf8.withContiguousStorageIfAvailable({ sink.bytes(UnsafeRawBufferPointer($0)) }) == nil {
            for byte in string.utf8 { sink.byte(byte) }
        }
    }

    @inline(__always)
    private static func writeLength(_ length: Int, to sink: inout some ByteSink) {
        var rest = UInt64(length)
        while rest >= 0x80 {
            sink.byte(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        sink.byte(UInt8(rest))
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

/// Where ``PingRecordBody`` puts a body's bytes: counted first, then written.
private protocol ByteSink {
    mutating func byte(_ value: UInt8)
    mutating func bytes(_ bytes: UnsafeRawBufferPointer)
}

extension ByteSink {
    /// 8 bytes, little-endian.
    mutating func uint64(_ value: UInt64) {
        withUnsafeBytes(of: value.littleEndian) { bytes($0) }
    }
}

/// Counts the bytes of a body.
private struct ByteCounter: ByteSink {
    var count = 0
    @inline(__always) mutating func byte(_ value: UInt8) { count += 1 }
    @inline(__always) mutating func bytes(_ bytes: UnsafeRawBufferPointer) { count += bytes.count }
}

/// Writes a body into memory sized by ``ByteCounter``; writing past its end stops the process
/// rather than the memory after it.
private struct ByteWriter: ByteSink {
    let bytes: UnsafeMutableRawBufferPointer
    var offset = 0

    @inline(__always)
    mutating func byte(_ value: UInt8) {
        precondition(offset < bytes.count, "a ping record outgrew its size")
        bytes[offset] = value
        offset += 1
    }

    @inline(__always)
    mutating func bytes(_ source: UnsafeRawBufferPointer) {
        precondition(source.count <= bytes.count - offset, "a ping record outgrew its size")
        guard let base = source.baseAddress, let target = bytes.baseAddress else { return }
        (target + offset).copyMemory(from: base, byteCount: source.count)
        offset += source.count
    }
}
