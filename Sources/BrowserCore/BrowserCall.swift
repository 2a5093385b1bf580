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
    package static func wholeSeconds(_ raw: String) -> Int64? {
        var bytes = Substring(raw).utf8[...]
        let negative = bytes.first == UInt8(ascii: "-")
        if negative { bytes = bytes.dropFirst() }
        let whole = bytes.prefix { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
        let rest = bytes.dropFirst(whole.count)
        guard !whole.isEmpty, whole.count <= 15 else { return nil }
        var fractional = false
        if let dot = rest.first {
            guard dot == UInt8(ascii: "."), rest.dropFirst().allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
            else { return nil }
            fractional = rest.dropFirst().contains { $0 != UInt8(ascii: "0") }
        }
        let value = whole.reduce(Int64(0)) { $0 * 10 + Int64($1 - UInt8(ascii: "0")) }
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
