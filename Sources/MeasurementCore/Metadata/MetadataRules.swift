/// One problem found in `loadMetadata` input. The asset is still measured; the problem is
/// reported as an error naming the key.
package struct MetadataIssue: Sendable, Equatable {
    /// The metadata key.
    package let key: String
    /// What is wrong with it.
    package let problem: String
    /// `emptyValue` (1004) for a missing key, `failedParseMetadata` (2) for an invalid value.
    package let code: MeterEventCode

    /// Creates an issue.
    package init(key: String, problem: String, code: MeterEventCode) {
        self.key = key
        self.problem = problem
        self.code = code
    }
}

/// The shapes of metadata the rules tell apart.
package enum MetadataKind: Sendable, Hashable, CaseIterable {
    /// DCR content (`type` content with `assetid`).
    case content
    /// An ad.
    case ad
    /// A Digital Audio station (`type` radio).
    case station
    /// DTVR (`type` content with `adModel` and no `assetid`).
    case dtvr
    /// A static page (`type` static).
    case staticPage
}

/// The validation rules for metadata keys, as data: which metadata kinds require the key, for
/// which it is checked, and what a valid value looks like in a given market. Tests walk this
/// table row by row.
struct MetadataFieldRule: Sendable {
    let key: String
    let requiredFor: Set<MetadataKind>
    /// The kinds whose value is checked (those that use the key).
    var checkedFor: Set<MetadataKind> = Set(MetadataKind.allCases)
    /// Returns the problem with `value`, or nil when it is valid.
    let check: @Sendable (_ value: String, _ market: MarketProfile) -> String?

    static let all: [MetadataFieldRule] = [
        MetadataFieldRule(key: "assetid", requiredFor: [.content, .ad, .station], checkedFor: [.content, .ad, .staticPage]) { value, market in
            if value.count > market.assetIDMaxLength {
                return "is \(value.count) characters; \(market.name) allows at most \(market.assetIDMaxLength)"
            }
            if let allowed = market.assetIDCharacters, let bad = value.first(where: { !allowed.contains($0) }) {
                return "contains \"\(bad)\"; \(market.name) allows only letters, digits, '_' and '-'"
            }
            return nil
        },
        MetadataFieldRule(key: "program", requiredFor: [.content]) { value, market in
            value.count > market.programMaxLength
                ? "is \(value.count) characters; \(market.name) allows at most \(market.programMaxLength)" : nil
        },
        MetadataFieldRule(key: "title", requiredFor: [.content]) { value, market in
            if value.count > market.titleMaxLength {
                return "is \(value.count) characters; \(market.name) allows at most \(market.titleMaxLength)"
            }
            if market.titleForbidsBackslash && value.contains("\\") {
                return "contains a backslash, which \(market.name) does not allow"
            }
            return nil
        },
        MetadataFieldRule(key: "length", requiredFor: [.content]) { value, _ in
            Int64(value).map { $0 >= 0 } == true ? nil : "\"\(value)\" is not a whole number of seconds"
        },
        MetadataFieldRule(key: "airdate", requiredFor: [.content]) { value, _ in
            AirdateFormat.isValid(value) ? nil : "\"\(value)\" is not a documented airdate format (e.g. YYYYMMDD HH:MI:SS)"
        },
        MetadataFieldRule(key: "isfullepisode", requiredFor: [.content]) { value, _ in
            FullEpisode(metadataValue: value) == nil ? "\"\(value)\" is not 'y' or 'n'" : nil
        },
        MetadataFieldRule(key: "assetid", requiredFor: [], checkedFor: [.station]) { value, _ in
            let letters = value.split(separator: "-", maxSplits: 1)
            // ASCII: call letters are; Unicode case tables would add 35 kB to the browser's bundle.
            let capitals = value.utf8.allSatisfy { (0x41...0x5A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x2D }
            return letters.count == 2 && capitals ? nil
                : "\"\(value)\" is not call letters and band in capitals (e.g. WXYZ-FM)"
        },
        MetadataFieldRule(key: "section", requiredFor: [.staticPage], checkedFor: [.staticPage]) { value, market in
            guard let pattern = market.staticSectionPattern, !pattern.matches(value) else { return nil }
            return "is \"\(value)\"; \(market.name) measures only the home page, as \(pattern.example) (measured as given)"
        },
        MetadataFieldRule(key: "segA", requiredFor: [], checkedFor: [.staticPage]) { value, _ in
            value.count > 25 ? "is \(value.count) characters; static pages allow at most 25" : nil
        },
        MetadataFieldRule(key: "stationType", requiredFor: [.station], checkedFor: [.station]) { value, _ in
            ["1", "2"].contains(value) ? nil : "\"\(value)\" is not '1' or '2'"
        },
        MetadataFieldRule(key: "provider", requiredFor: [.station], checkedFor: [.station]) { _, _ in nil },
        MetadataFieldRule(key: "adModel", requiredFor: [.dtvr], checkedFor: [.dtvr, .content]) { value, _ in
            AdLoadType(rawValue: value) == nil ? "\"\(value)\" is not '1' (linear) or '2' (dynamic)" : nil
        },
        MetadataFieldRule(key: "channelName", requiredFor: [], checkedFor: [.dtvr]) { value, _ in
            value.count > 32 ? "is \(value.count) characters; DTVR allows at most 32" : nil
        },
        MetadataFieldRule(key: "adloadtype", requiredFor: [.content]) { value, market in
            guard let type = AdLoadType(rawValue: value) else { return "\"\(value)\" is not '1' (linear) or '2' (dynamic)" }
            if let required = market.requiredAdLoadType, type != required {
                return "is '\(value)'; \(market.name)'s guide says it has to be '\(required.rawValue)' (measured as given)"
            }
            return nil
        },
    ]
}
