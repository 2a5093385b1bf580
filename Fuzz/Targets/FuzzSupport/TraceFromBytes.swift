import Foundation
import MeterWire

/// Builds a call trace from bytes, one field at a time, from tables of what the checks compare:
/// call names, argument names, asset types, and the numbers and times at the edges of what
/// `Int64` and `Double` hold. Past the end of the bytes every field reads as its first choice.
public struct TraceFromBytes {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var offset = 0

    public init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    public static let interestingNumbers: [Int64] = [
        0, 1, 2, 3, 29, 30, 31, 60, 600, 86_399, 86_400, -1, -2, .max, .min, .max - 1, .min + 1, 1 << 53, -(1 << 53),
    ]

    private static let calls = TracedCall.allCases.map(\.rawValue) + ["", "unknownCall", "\u{1B}[2J"]
    private static let names = [
        "position", "type", "assetid", "length", "cid", "fdOffset", "pcOffset", "optOut", "nol_devDebug", "enabled",
        "section", "problems", "channelName", "tag",
    ]
    private static let words = [
        "content", "preroll", "midroll", "postroll", "ad", "static", "true", "false", "DEBUG", "D", "a", "b", "",
        "\u{1B}]0;x\u{07}", "\u{9B}31m", "\u{202E}", "\u{2028}", "1e400", "-0", "+5", " 7", "0x10", "١٢",
    ]
    private static let steps: [Double] = [0, 1, 1, 2, 3, 5, 10, 31, 121, 0.5, 1e300, 1.7e308, -1, .infinity, .nan]

    private mutating func byte() -> UInt8 {
        guard offset < bytes.count else { return 0 }
        defer { offset += 1 }
        return bytes[offset]
    }

    private mutating func pick<Element>(_ choices: [Element]) -> Element {
        choices[Int(byte()) % choices.count]
    }

    private mutating func number() -> Int64 {
        let choice = byte()
        if choice < 200 { return Self.interestingNumbers[Int(choice) % Self.interestingNumbers.count] }
        return Int64(choice) - 228 + Int64(byte()) * 7
    }

    /// An argument's value: a number (as a string), a word, or a long run of one.
    private mutating func value() -> String {
        switch byte() % 4 {
        case 0, 1: String(number())
        case 2: pick(Self.words)
        default: String(repeating: pick(Self.words), count: Int(byte() % 32) * 16)
        }
    }

    private mutating func entry(seq: Int, time: inout Double) -> CallTraceEntry {
        let call = pick(Self.calls)
        let control = byte()
        time += control & 0x80 == 0 ? pick(Self.steps) : Double(byte())
        var args: [String: String] = [:]
        for _ in 0..<(control & 0x03) { args[pick(Self.names)] = value() }
        if call == TracedCall.playheadPosition.rawValue, args["position"] == nil { args["position"] = String(number()) }
        let events = control & 0x04 == 0 ? [] : [TracedEvent(code: Int(truncatingIfNeeded: number()), isEvent: byte() & 1 == 0, text: value())]
        var pings: [TracedPing] = []
        for index in 0..<((control >> 3) & 0x03) {
            let query = ["prd=dcr", "uoo=\(pick(Self.words))", "c9=devid,\(value())", "c1=nuid,", "pingid=\(index)"]
                .filter { _ in byte() & 1 == 0 }.joined(separator: "&")
            pings.append(TracedPing(id: "p\(seq)-\(index)" + String(repeating: "x", count: Int(byte() % 8)), query: query))
        }
        let seqShift = control & 0x60
        let storedSeq = seqShift == 0x60 ? Int(truncatingIfNeeded: number()) : seq
        return CallTraceEntry(seq: storedSeq, time: time, call: call, args: args, state: pick(Self.words),
                              events: events, pings: pings)
    }

    /// The whole trace: up to 500 entries, as many as the bytes describe (the 20,000-entry test
    /// covers length; here each execution should be quick).
    public mutating func batch() -> CallTraceBatch {
        var time = 1_700_000_000.0
        var entries: [CallTraceEntry] = []
        while offset < bytes.count, entries.count < 500 {
            entries.append(entry(seq: entries.count, time: &time))
        }
        return CallTraceBatch(session: value(), appid: "P" + value(), sdk: pick(Self.words), entries: entries)
    }
}
