@testable import CensusHTTP
import Foundation
import Logging
import Testing

/// `meter serve`'s line layouts (``LogLineFormat``), which its log handler and the access log's
/// batch writer share (census-decisions.md S46).
@Suite struct LogLineFormatTests {
    /// 2026-11-29T21:05:02.123Z.
    static let time = WallTime(nanoseconds: 1_795_986_302_123_456_789)

    static func line(_ format: LogLineFormat, message: String = "GET /healthz 200",
                     metadata: [(key: String, value: String)] = [("bytes", "3"), ("client", "127.0.0.0"), ("ms", "1.042")]) -> String {
        var writer = LogLineWriter(format: format)
        var buffer: [UInt8] = []
        writer.append(time: time, level: .info, label: "Census.access", source: "CensusHTTP", message: message,
                      metadata: metadata, to: &buffer)
        return String(decoding: buffer, as: UTF8.self)
    }

    @Test func jsonIsOneSortedObjectALineInUTC() {
        #expect(Self.line(.json) == #"{"label":"Census.access","level":"info","message":"GET /healthz 200","metadata":{"bytes":"3","client":"127.0.0.0","ms":"1.042"},"source":"CensusHTTP","time":"2026-11-29T21:05:02.123Z"}"# + "\n")
        #expect(!Self.line(.json, metadata: []).contains("metadata"))
    }

    @Test func textIsSwiftLogsStreamLayoutInLocalTime() throws {
        let line = Self.line(.text)
        let space = try #require(line.firstIndex(of: " "))
        #expect(line[space...] == " info Census.access: bytes=3 client=127.0.0.0 ms=1.042 [CensusHTTP] GET /healthz 200\n")
        // `%Y-%m-%dT%H:%M:%S%z` in the process's time zone.
        let stamp = String(line[..<space])
        #expect(stamp.count == 24 && stamp.hasPrefix("2026-11-") && stamp.dropFirst(10).first == "T", "\(stamp)")
        #expect(Self.line(.text, metadata: []).hasSuffix(" info Census.access: [CensusHTTP] GET /healthz 200\n"))
    }

    /// Whatever a client makes a message or a value say, a JSON line is one line that decodes to it.
    @Test func jsonKeepsAnyTextOnItsLine() throws {
        var generator = SystemRandomNumberGenerator()
        let pieces = ["\"", "\\", "\n", "\r", "\t", "\u{1B}[2J", "\u{0}", "é", "🎬", "/", "}", "a", " ", "\u{7F}", "\u{2028}"]
        for _ in 0..<200 {
            let message = (0..<Int.random(in: 0...12, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            let value = (0..<Int.random(in: 0...6, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            let line = Self.line(.json, message: message, metadata: [("reason", value)])
            #expect(line.utf8.filter { $0 == UInt8(ascii: "\n") }.count == 1 && line.hasSuffix("\n"))
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(object["message"] as? String == message)
            #expect((object["metadata"] as? [String: String])?["reason"] == value)
        }
    }

    @Test func aBatchCrossingSecondsKeepsEachLinesTime() {
        var writer = LogLineWriter(format: .json)
        var buffer: [UInt8] = []
        for step in 0..<3 {
            writer.append(time: WallTime(nanoseconds: Self.time.nanoseconds + Int64(step) * 600_000_000), level: .warning,
                          label: "L", source: "S", message: "m", metadata: EmptyCollection(), to: &buffer)
        }
        let times = String(decoding: buffer, as: UTF8.self).split(separator: "\n").map { $0.suffix(26).prefix(24) }
        #expect(times == ["2026-11-29T21:05:02.123Z", "2026-11-29T21:05:02.723Z", "2026-11-29T21:05:03.323Z"])
    }
}
