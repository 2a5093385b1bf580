package import MeasurementCore
import MeterContract

/// One `ggPM` call of the browser SDK's guide, read from the text the page's JavaScript passes:
/// the call's name on the first line, then its argument as a query (`k=v&…`, percent-encoded):
/// the metadata object's keys, or `p=` for a playhead position.
package enum BrowserCall: Equatable {
    /// `loadMetadata` with the object's string values.
    case loadMetadata([String: String])
    /// `setPlayheadPosition`: AOD (and ad) seconds, or Unix seconds for live.
    case setPlayheadPosition(Int64?)
    /// `stop` with the playhead position the guide asks for.
    case stop(Int64?)
    /// `end` with the playhead position the guide asks for.
    case end(Int64?)
    /// The page is hidden (`visibilitychange`, `pagehide`): audio may go on playing, video is
    /// credited while visible (the app SDK's background rule).
    case hidden
    /// The page is visible again.
    case visible
    /// The page is being unloaded for good (`pagehide` that will not be restored): whatever is
    /// measured is closed and its credit sent, as the app SDK does when its instance is released.
    case leave

    /// What starts the names of the calls appmeter.js makes for the page itself (visibility,
    /// unload), never the names of the guide's calls.
    package static let pageSignalPrefix = "\u{1}"

    /// Reads `text`, or says why it cannot.
    package static func parse(_ text: String) -> Result<BrowserCall, BrowserInputError> {
        if let playhead = playheadFastPath(text) { return playhead }
        let lines = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
        let name = String(lines[0])
        let query = lines.count > 1 ? lines[1] : ""
        guard case .success(let pairs) = PingQuery.parameters(query) else {
            return .failure(BrowserInputError(message: "\(name): the argument could not be read"))
        }
        var values: [String: String] = [:]
        for pair in pairs where values[pair.name] == nil { values[pair.name] = pair.value }
        // The page's own signals start with U+0001, which `ggPM` strips from what a page passes:
        // a page cannot send them.
        switch name.asciiLowercased {
        case pageSignalPrefix + "hidden": return .success(.hidden)
        case pageSignalPrefix + "visible": return .success(.visible)
        case pageSignalPrefix + "leave": return .success(.leave)
        case "loadmetadata": return .success(.loadMetadata(values))
        case "setplayheadposition": return position(values, name).map { .setPlayheadPosition($0) }
        case "stop": return position(values, name, optional: true).map { .stop($0) }
        case "end": return position(values, name, optional: true).map { .end($0) }
        default:
            return .failure(BrowserInputError(message: "ggPM('\(name)') is not one of loadMetadata, setPlayheadPosition, stop, end"))
        }
    }

    /// `setPlayheadPosition` whose argument the page passed as a number (`am_playhead`): the call
    /// its text `setPlayheadPosition\np=<the number>` is, without writing and reading the text. The
    /// page passes only whole numbers below 10¹⁵ this way, whose text is their digits; any finite
    /// number below 10¹⁵ is rounded down, as ``wholeSeconds(_:)`` rounds a decimal, and any other
    /// is refused as its text would be.
    package static func playhead(seconds: Double) -> Result<BrowserCall, BrowserInputError> {
        guard seconds.isFinite, seconds.magnitude < 1e15 else {
            return .failure(BrowserInputError(
                code: .invalidPlayheadPosition,
                message: "setPlayheadPosition: the playhead position is not a number of seconds below 10^15; call ignored"))
        }
        return .success(.setPlayheadPosition(Int64(seconds.rounded(.down))))
    }

    /// `setPlayheadPosition` with a bare `p=` argument, the call a playing page makes every second,
    /// read without splitting the text, decoding a query or building a dictionary: the same answer
    /// as the general reading, which takes every other text (any `%`, `+`, `&` or other key).
    private static func playheadFastPath(_ text: String) -> Result<BrowserCall, BrowserInputError>? {
        let name = "setplayheadposition".utf8, argument = "\np=".utf8
        let bytes = text.utf8
        guard bytes.count > name.count + argument.count else { return nil }
        var index = bytes.startIndex
        for expected in name {   // the name in any case, as the general reading lowercases it
            var byte = bytes[index]
            if byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") { byte += 32 }
            guard byte == expected else { return nil }
            index = bytes.index(after: index)
        }
        for expected in argument {
            guard bytes[index] == expected else { return nil }
            index = bytes.index(after: index)
        }
        // Whole seconds are digits, `-` and `.`: no escape, no other key. Anything else is not read
        // here but by the general reading, which also says why it is refused.
        guard let seconds = wholeSeconds(Substring(text).utf8[index...]) else { return nil }
        return .success(.setPlayheadPosition(seconds))
    }

    private static func position(_ values: [String: String], _ name: String, optional: Bool = false)
        -> Result<Int64?, BrowserInputError>
    {
        let raw = values["p"] ?? ""
        if raw.isEmpty && optional { return .success(nil) }
        guard let seconds = wholeSeconds(raw) else {
            return .failure(BrowserInputError(
                code: .invalidPlayheadPosition,
                message: "\(name): the playhead position \"\(raw)\" is not a number of seconds; call ignored"))
        }
        return .success(seconds)
    }

    /// `raw` as whole seconds: an integer, or a decimal rounded down (players report fractions);
    /// nil for anything else or beyond ±10¹⁵ s.
    package static func wholeSeconds(_ raw: String) -> Int64? { wholeSeconds(raw.utf8[...]) }

    /// ``wholeSeconds(_:)`` over bytes, in one pass without closures: a playing page's every
    /// second goes through it, and the engine is compiled for size (scripts/build-browser-sdk).
    static func wholeSeconds(_ bytes: Substring.UTF8View) -> Int64? {
        var index = bytes.startIndex
        let negative = index < bytes.endIndex && bytes[index] == UInt8(ascii: "-")
        if negative { index = bytes.index(after: index) }
        var value: Int64 = 0
        var digits = 0
        while index < bytes.endIndex, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
            digits += 1
            guard digits <= 15 else { return nil }
            value = value * 10 + Int64(bytes[index] - UInt8(ascii: "0"))
            index = bytes.index(after: index)
        }
        guard digits > 0 else { return nil }
        var fractional = false
        if index < bytes.endIndex {
            guard bytes[index] == UInt8(ascii: ".") else { return nil }
            index = bytes.index(after: index)
            while index < bytes.endIndex {
                let byte = bytes[index]
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                if byte != UInt8(ascii: "0") { fractional = true }
                index = bytes.index(after: index)
            }
        }
        return negative ? -value - (fractional ? 1 : 0) : value
    }
}

/// A call the browser SDK could not read: reported to the page (the console with
/// `nol_sdkDebug`) with the app SDK's error code.
package struct BrowserInputError: Error, Equatable {
    /// The code the app SDK reports for the same problem.
    package var code: MeterEventCode = .failedParseMetadata
    /// What is wrong.
    package var message: String
}
