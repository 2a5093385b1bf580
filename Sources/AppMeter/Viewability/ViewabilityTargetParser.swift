import Foundation

/// Reads `trackViewability`'s dictionary: `viewTag` (the player view's tag; default appInfo
/// `containerId`), `viewContainer` (a tag), `friendlyObstructions` (tags). Tags may be numbers or
/// strings holding integers, as `containerId` is in the guides.
package enum ViewabilityTargetParser {
    package static func parse(_ data: [String: Any], containerId: String?) -> Result<ViewabilityTarget, TrackedEventParser.Rejection> {
        let rawTag: Any? = data["viewTag"] ?? containerId.map { $0 as Any }
        guard let viewTag = tag(rawTag) else {
            let reason = rawTag.map { "'viewTag' \($0) is not an integer view tag" }
                ?? "'viewTag' is missing and appInfo has no 'containerId' (or 'containerID'); nothing to measure"
            return .failure(TrackedEventParser.Rejection(reason: reason))
        }
        var target = ViewabilityTarget(viewTag: viewTag)
        if let container = data["viewContainer"] {
            guard let containerTag = tag(container) else {
                return .failure(TrackedEventParser.Rejection(reason: "'viewContainer' \(container) is not an integer view tag"))
            }
            target.containerTag = containerTag
        }
        if let obstructions = data["friendlyObstructions"] {
            guard let list = obstructions as? [Any], case let tags = list.compactMap(tag), tags.count == list.count else {
                return .failure(TrackedEventParser.Rejection(reason: "'friendlyObstructions' must be a list of integer view tags"))
            }
            target.friendlyObstructionTags = tags
        }
        return .success(target)
    }

    private static func tag(_ value: Any?) -> Int? {
        switch value {
        case let text as String: Int(text.trimmingCharacters(in: .whitespaces))
        case let number as NSNumber: type(of: value!) == Bool.self ? nil : number.intValue
        default: nil
        }
    }
}
