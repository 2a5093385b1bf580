public import Foundation
import MeterWire

/// The readers of outside input, for the libFuzzer targets in `Fuzz/` (`@_spi(Fuzzing) import
/// AppMeter`): the same code the facades and the census run, without an instance.
@_spi(Fuzzing)
public enum InputFuzzing {
    /// Reads `data` as a JSON object (anything else is dropped, as the facades report it) with
    /// every reader: appInfo, metadata, trackEvent, updateOTT, trackViewability; and, as the
    /// instance's runner reads a deferred call's argument (decisions.md E12), the bytes as a JSON
    /// string and the object as an argument handed over.
    public static func read(_ data: Data) {
        if let text = String(data: data, encoding: .utf8) {
            _ = UntypedInput.object(from: UntypedArgument(text).value)
            _ = UntypedInput.stringDictionary(from: text)
        }
        guard let object = (try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])) as? [String: Any]
        else { return }
        let strings = object.compactMapValues { $0 as? String }
        _ = AppInfo.parse(strings, fallbackAppName: "Fuzz", fallbackAppVersion: "1")
        for market in MarketProfile.all + [.generic] {
            _ = MetadataParser.parse(strings, market: market)
            _ = TrackedEventParser.parse(object, market: market)
        }
        _ = UntypedInput.object(from: UntypedArgument(object).value)
        _ = OTTStatus.parse(strings)
        _ = ViewabilityTargetParser.parse(object, containerId: strings["containerId"] ?? strings["containerID"])
    }
}
