import Foundation
import MeterWire

/// A call whose argument the caller's thread hands over unread, for the instance's runner to read
/// in call order (decisions.md E12): what a call made every second costs its caller is then a
/// clock read, a lock and an append, whatever the argument holds.
enum DeferredCall: Sendable {
    /// `trackEvent`: the event object (a dictionary, or a JSON object string).
    case trackEvent(UntypedArgument)
    /// `loadMetadata`: a JSON object string or a dictionary of strings.
    case loadMetadata(UntypedArgument)
    /// `sendID3`: a Nielsen owner string (`www.nielsen.com/…`; other strings never get here).
    case id3(String)
}

/// Reads ``DeferredCall``s into the core's commands, on the runner: the parsing the facades did on
/// the caller's thread before, with the same reports, in the same order.
struct ArgumentReader: Sendable {
    /// The instance's market, whose metadata rules apply.
    let market: MarketProfile
    /// `trackEvent`'s `optout` is the user's choice, applied before the event.
    let optOut: OptOutSwitch

    /// Appends the commands `call` stands for to `commands`.
    func read(_ call: DeferredCall, into commands: inout [MeterCommand]) {
        switch call {
        case .trackEvent(let argument):
            switch UntypedInput.object(from: argument.value) {
            case .success(let object): readEvent(object, into: &commands)
            case .failure(let error): commands.append(.report(.failedParseMetadata, "trackEvent: \(error); call ignored"))
            }
        case .loadMetadata(let argument):
            switch UntypedInput.stringDictionary(from: argument.value) {
            case .success(let values): commands.append(.loadMetadata(MetadataParser.parse(values, market: market)))
            case .failure(let error): commands.append(.report(.failedParseMetadata, "loadMetadata: \(error); call ignored"))
            }
        case .id3(let ownerString):
            switch NielsenID3Tag.parse(ownerString) {
            case .success(let tag): commands.append(.id3(tag))
            case .failure(let problem): commands.append(.report(.failedProcessID3, "sendID3: \(problem.reason); tag ignored"))
            }
        }
    }

    private func readEvent(_ object: [String: Any], into commands: inout [MeterCommand]) {
        switch TrackedEventParser.parse(object, market: market) {
        case .success(let parsed):
            if let command = parsed.optOut {
                if let choice = optOut.apply(command) {
                    commands.append(.setOptOut(choice))
                } else {
                    commands.append(.report(.failedParseMetadata,
                                            "trackEvent: 'optout' \"\(command)\" is not nielsenappsdk://0 or nielsenappsdk://1; ignored"))
                }
            }
            commands.append(.track(parsed.event))
        case .failure(let rejection):
            commands.append(.report(.failedParseMetadata, "trackEvent: \(rejection.reason); call ignored"))
        }
    }
}
