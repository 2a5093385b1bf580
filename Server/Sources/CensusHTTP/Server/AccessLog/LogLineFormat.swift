import Foundation
package import Logging

/// How `meter serve` lays out a log line, in one place for its log handler and for the access
/// log's writer, which formats its lines itself, many to a write (census-decisions.md S46):
/// - `text`: `2026-11-29T21:05:02+0000 info Census.access: bytes=3 client=127.0.0.0 ms=1.042 [CensusHTTP] GET /healthz 200`,
///   local time to the second, metadata sorted by key (swift-log's `StreamLogHandler` layout);
/// - `json`: one object a line, keys sorted: `label`, `level`, `message`, `metadata` (when there
///   is any, every value a string), `source`, `time` (ISO 8601, UTC, milliseconds). Messages and
///   metadata can carry what a client sent: JSON's escaping keeps each entry on its one line.
package enum LogLineFormat: String, Sendable, CaseIterable {
    case text
    case json
}

/// A moment on the wall clock, as nanoseconds since 1970.
package struct WallTime: Sendable, Equatable {
    package var nanoseconds: Int64

    package init(nanoseconds: Int64) {
        self.nanoseconds = nanoseconds
    }

    /// Now: one `clock_gettime`, no allocation.
    package static func now() -> WallTime {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return WallTime(nanoseconds: Int64(spec.tv_sec) &* 1_000_000_000 &+ Int64(spec.tv_nsec))
    }
}

/// Appends lines in a ``LogLineFormat`` to a byte buffer. It keeps the last second's time as
/// text, so a batch of lines formats its time once a second, not once a line (the local time's
/// conversion reads the time-zone file's status each call).
package struct LogLineWriter {
    package let format: LogLineFormat
    private var second: Int64 = .min
    private var secondText: [UInt8] = []

    package init(format: LogLineFormat) {
        self.format = format
    }

    /// Appends one line, ending in `\n`, to `buffer`. `metadata` is written in its order: give it
    /// sorted by key.
    package mutating func append(
        time: WallTime, level: Logger.Level, label: String, source: String, message: String,
        metadata: some Collection<(key: String, value: String)>, to buffer: inout [UInt8]
    ) {
        let seconds = time.nanoseconds >= 0 ? time.nanoseconds / 1_000_000_000 : (time.nanoseconds + 1) / 1_000_000_000 - 1
        if seconds != second {
            second = seconds
            secondText = Self.secondText(seconds, format)
        }
        switch format {
        case .text:
            buffer.append(contentsOf: secondText)
            buffer.append(UInt8(ascii: " "))
            buffer.append(contentsOf: level.rawValue.utf8)
            if !label.isEmpty { buffer.append(UInt8(ascii: " ")) }
            buffer.append(contentsOf: label.utf8)
            buffer.append(UInt8(ascii: ":"))
            for (key, value) in metadata {
                buffer.append(UInt8(ascii: " "))
                buffer.append(contentsOf: key.utf8)
                buffer.append(UInt8(ascii: "="))
                buffer.append(contentsOf: value.utf8)
            }
            buffer.append(contentsOf: " [".utf8)
            buffer.append(contentsOf: source.utf8)
            buffer.append(contentsOf: "] ".utf8)
            buffer.append(contentsOf: message.utf8)
        case .json:
            buffer.append(contentsOf: #"{"label":"#.utf8)
            Self.appendJSONString(label, to: &buffer)
            buffer.append(contentsOf: #","level":"#.utf8)
            Self.appendJSONString(level.rawValue, to: &buffer)
            buffer.append(contentsOf: #","message":"#.utf8)
            Self.appendJSONString(message, to: &buffer)
            if !metadata.isEmpty {
                buffer.append(contentsOf: #","metadata":{"#.utf8)
                var first = true
                for (key, value) in metadata {
                    if !first { buffer.append(UInt8(ascii: ",")) }
                    first = false
                    Self.appendJSONString(key, to: &buffer)
                    buffer.append(UInt8(ascii: ":"))
                    Self.appendJSONString(value, to: &buffer)
                }
                buffer.append(UInt8(ascii: "}"))
            }
            buffer.append(contentsOf: #","source":"#.utf8)
            Self.appendJSONString(source, to: &buffer)
            buffer.append(contentsOf: #","time":""#.utf8)
            buffer.append(contentsOf: secondText)
            let millis = Int((time.nanoseconds % 1_000_000_000 + 1_000_000_000) % 1_000_000_000 / 1_000_000)
            buffer.append(UInt8(ascii: "."))
            buffer.append(UInt8(ascii: "0") + UInt8(millis / 100))
            buffer.append(UInt8(ascii: "0") + UInt8(millis / 10 % 10))
            buffer.append(UInt8(ascii: "0") + UInt8(millis % 10))
            buffer.append(contentsOf: #"Z"}"#.utf8)
        }
        buffer.append(UInt8(ascii: "\n"))
    }

    /// `"…"` with `"`, `\` and control characters escaped as JSON requires (`\n`, `\u001b`); other
    /// text, multi-byte UTF-8 included, as it is.
    static func appendJSONString(_ text: String, to buffer: inout [UInt8]) {
        buffer.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): buffer.append(contentsOf: #"\""#.utf8)
            case UInt8(ascii: "\\"): buffer.append(contentsOf: #"\\"#.utf8)
            case UInt8(ascii: "\n"): buffer.append(contentsOf: #"\n"#.utf8)
            case UInt8(ascii: "\r"): buffer.append(contentsOf: #"\r"#.utf8)
            case UInt8(ascii: "\t"): buffer.append(contentsOf: #"\t"#.utf8)
            case 0..<0x20:
                let digits = Array("0123456789abcdef".utf8)
                buffer.append(contentsOf: #"\u00"#.utf8)
                buffer.append(digits[Int(byte >> 4)])
                buffer.append(digits[Int(byte & 0xF)])
            default: buffer.append(byte)
            }
        }
        buffer.append(UInt8(ascii: "\""))
    }

    /// The second's text: `2026-11-29T21:05:02+0000` in local time for `text`, as swift-log's
    /// stream handler writes it; `2026-11-29T21:05:02` in UTC for `json`, whose lines append their
    /// milliseconds and `Z`.
    private static func secondText(_ seconds: Int64, _ format: LogLineFormat) -> [UInt8] {
        var time = time_t(seconds)
        var parts = tm()
        if format == .text { localtime_r(&time, &parts) } else { gmtime_r(&time, &parts) }
        var text = [Int8](repeating: 0, count: 32)
        let count = strftime(&text, text.count, format == .text ? "%Y-%m-%dT%H:%M:%S%z" : "%Y-%m-%dT%H:%M:%S", &parts)
        return text.prefix(count).map { UInt8(bitPattern: $0) }
    }
}
