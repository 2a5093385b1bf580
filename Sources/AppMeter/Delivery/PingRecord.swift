import Foundation
import MeterWire

/// A ping as kept in the durable queue.
package struct PingRecord: Sendable, Codable, Equatable {
    /// The ping (parameters without send time).
    package var ping: Ping
    /// True for a ping rebuilt from a credit checkpoint after the process died; sent with
    /// `recovered=1`.
    package var recovered: Bool
    /// A viewability ping's JSON body (``ViewabilityReport``), POSTed to `WireRoute.viewability`
    /// with the ping's parameters in the query; nil for measurement pings.
    package var body: String?
    /// Where a record with a body is POSTed (nil: ``WireRoute/viewability``, as records queued
    /// before call traces existed say nothing).
    package var route: String?

    package init(ping: Ping, recovered: Bool, body: String? = nil, route: String? = nil) {
        self.ping = ping
        self.recovered = recovered
        self.body = body
        self.route = route
    }

    /// The route this record is sent to.
    package var wireRoute: String {
        body == nil ? WireRoute.ping : route ?? WireRoute.viewability
    }

    /// The bytes the record takes in storage (for the byte bound).
    package var approximateSize: Int {
        ping.parameters.reduce(64 + (body?.utf8.count ?? 0)) { $0 + $1.name.utf8.count + $1.value.utf8.count + 8 }
    }
}

/// The stored form of a record: a magic line, the CRC-32 of the body, and the JSON body.
/// Anything else — a torn write, a truncated file, flipped bits — fails to decode and is skipped.
package enum PingRecordCodec {
    static let magic = "APPMETER-PING-1\n"

    package static func encode(_ record: PingRecord) -> Data {
        let body = (try? JSONEncoder().encode(record)) ?? Data()
        var data = Data(magic.utf8)
        data.append(contentsOf: String(format: "%08x\n", CRC32.checksum(body)).utf8)
        data.append(body)
        return data
    }

    package static func decode(_ data: Data) -> PingRecord? {
        let magicBytes = Data(magic.utf8)
        guard data.count > magicBytes.count + 9, data.prefix(magicBytes.count) == magicBytes else { return nil }
        let checksumBytes = data.dropFirst(magicBytes.count).prefix(9)
        guard checksumBytes.last == UInt8(ascii: "\n"),
              let expected = UInt32(String(decoding: checksumBytes.dropLast(), as: UTF8.self), radix: 16)
        else { return nil }
        let body = Data(data.dropFirst(magicBytes.count + 9))
        guard CRC32.checksum(body) == expected else { return nil }
        return try? JSONDecoder().decode(PingRecord.self, from: body)
    }
}

/// CRC-32 (IEEE 802.3), for detecting damaged queue records.
package enum CRC32 {
    private static let table: [UInt32] = (0..<256).map { index in
        (0..<8).reduce(UInt32(index)) { crc, _ in crc & 1 == 1 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
    }

    package static func checksum(_ data: Data) -> UInt32 {
        ~data.reduce(~UInt32(0)) { crc, byte in table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
    }
}
