import CensusStore
import Logging

/// What one access-log line says of a request, and its writing: `GET /cgi-bin/gn 200` with the
/// client, the response's body bytes and the milliseconds from head to answer as metadata.
struct AccessLogLine {
    /// The longest path written, in bytes; longer ones end with `…`. A path is the client's, and
    /// a log line must not be as long as any request a client sends.
    static let maxPathBytes = 256

    var method: String
    var path: String
    var status: Int
    var bytes: Int
    var nanoseconds: Int64
    var client: String
    /// When its answer was written: the line's time.
    var endedAt = WallTime(nanoseconds: 0)

    /// Writes the line at `info`, the level `meter serve` logs at by default.
    func write(to logger: Logger) {
        logger.info("\(method) \(path) \(status)", metadata: [
            "client": .string(client), "bytes": .stringConvertible(bytes), "ms": .string(Self.milliseconds(nanoseconds)),
        ])
    }

    /// Appends the line as `meter serve`'s handler would write it (``LogLineFormat``).
    func append(to buffer: inout [UInt8], with lines: inout LogLineWriter) {
        lines.append(time: endedAt, level: .info, label: AccessLog.label, source: AccessLog.source,
                     message: "\(method) \(path) \(status)",
                     metadata: [("bytes", String(bytes)), ("client", client), ("ms", Self.milliseconds(nanoseconds))],
                     to: &buffer)
    }

    /// `uri`'s path without its query (pings carry device ids there) and escaped.
    static func path(of uri: String) -> String {
        let utf8 = uri.utf8
        let end = utf8.firstIndex(where: { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }) ?? utf8.endIndex
        return escaped(uri.utf8[utf8.startIndex..<end])
    }

    /// `bytes` with every byte outside printable ASCII, the space, `"` and `\` written `%XX`, so
    /// no client can end a line, start a forged one, or move a terminal's cursor; cut at
    /// ``maxPathBytes``. A path as clients send it (ASCII, percent-encoded) is copied as it is.
    static func escaped(_ bytes: some Collection<UInt8>) -> String {
        let clipped = bytes.prefix(maxPathBytes)
        let suffix = bytes.count > maxPathBytes ? "…" : ""
        guard clipped.contains(where: needsEscape) else { return String(decoding: clipped, as: UTF8.self) + suffix }
        let digits = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(clipped.count * 3)
        for byte in clipped {
            if needsEscape(byte) {
                out += [UInt8(ascii: "%"), digits[Int(byte >> 4)], digits[Int(byte & 0xF)]]
            } else {
                out.append(byte)
            }
        }
        return String(decoding: out, as: UTF8.self) + suffix
    }

    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte <= 0x20 || byte >= 0x7F || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }

    /// `0.412` for 412,345 ns: microseconds, without a formatter.
    static func milliseconds(_ nanoseconds: Int64) -> String {
        let micros = max(0, nanoseconds) / 1000
        let fraction = String(micros % 1000)
        return "\(micros / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }
}
