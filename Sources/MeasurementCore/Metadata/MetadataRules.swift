/// One problem found in `loadMetadata` input. The asset is still measured; the problem is
/// reported as an error naming the key, or only logged as a warning where a guide's own example
/// breaks the rule (decisions.md M11a).
package struct MetadataIssue: Sendable, Equatable {
    /// The metadata key.
    package let key: String
    /// What is wrong with it.
    package let problem: String
    /// `emptyValue` (1004) for a missing key, `failedParseMetadata` (2) for an invalid value; nil
    /// for a warning: a WARN line, no event.
    package let code: MeterEventCode?

    /// Creates an issue.
    package init(key: String, problem: String, code: MeterEventCode?) {
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

/// A set of metadata kinds, as bits: the rules table's columns. A `Set<MetadataKind>` per column
/// cost the browser's engine its hashing and a table built by inserts (docs/browser.md, Size).
struct MetadataKinds: ExpressibleByArrayLiteral, Sendable {
    private let bits: UInt8

    private init(bits: UInt8) { self.bits = bits }

    init(arrayLiteral kinds: MetadataKind...) {
        self.bits = kinds.reduce(0) { $0 | Self.bit($1) }
    }

    /// Every kind.
    static let every = MetadataKinds(bits: 0xFF)

    /// Whether `kind` is in the set.
    func contains(_ kind: MetadataKind) -> Bool { bits & Self.bit(kind) != 0 }

    private static func bit(_ kind: MetadataKind) -> UInt8 {
        switch kind {
        case .content: 1
        case .ad: 2
        case .station: 4
        case .dtvr: 8
        case .staticPage: 16
        }
    }
}

/// Whose tables a metadata object is read by: the simplified API's tables (the simplified guide)
/// require keys the standard API's do not (decisions.md M2).
package enum MetadataTables: Sendable {
    /// `loadMetadata` (API reference, market pages).
    case standard
    /// `trackEvent`'s `metadata.content`, `.ad` and `.static`.
    case simplified
}

/// The validation rules for metadata keys, as data: which metadata kinds require the key (in
/// both APIs, or in the simplified API's tables only), for which it is checked, and what a valid
/// value looks like in a given market. Tests walk this table row by row.
struct MetadataFieldRule: Sendable {
    let key: String
    let requiredFor: MetadataKinds
    /// The kinds the simplified guide's tables also mark "Required: Yes".
    var requiredInSimplifiedFor: MetadataKinds = []
    /// The kinds whose value is checked (those that use the key).
    var checkedFor: MetadataKinds = .every
    /// True where a guide's own example breaks the check: a bad value is a warning, not an error (M11a).
    var warnsOnly = false
    /// Returns the problem with `value`, or nil when it is valid.
    let check: @Sendable (_ value: String, _ market: MarketProfile) -> String?

    /// Whether `kind` requires the key when read by `tables`.
    func isRequired(for kind: MetadataKind, in tables: MetadataTables) -> Bool {
        requiredFor.contains(kind) || (tables == .simplified && requiredInSimplifiedFor.contains(kind))
    }

    static let all: [MetadataFieldRule] = [
        // Static pages too: the Italy static table and the simplified static table say "Yes" (ST2).
        MetadataFieldRule(key: "assetid", requiredFor: [.content, .ad, .station, .staticPage],
                          checkedFor: [.content, .ad, .staticPage]) { value, market in
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
        // The API reference's own radio example ("WXYZ-FM'101") breaks this: a warning (M11a).
        MetadataFieldRule(key: "assetid", requiredFor: [], checkedFor: [.station], warnsOnly: true) { value, _ in
            let letters = value.split(separator: "-", maxSplits: 1)
            // ASCII: call letters are; Unicode case tables would add 35 kB to the browser's bundle.
            let capitals = value.utf8.allSatisfy { (0x41...0x5A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x2D }
            return letters.count == 2 && capitals ? nil
                : "\"\(value)\" is not call letters and band in capitals (e.g. WXYZ-FM), as Digital Audio metadata asks; measured as given"
        },
        MetadataFieldRule(key: "section", requiredFor: [.staticPage], requiredInSimplifiedFor: [.content],
                          checkedFor: [.staticPage]) { value, market in
            guard let pattern = market.staticSectionPattern, !pattern.matches(value) else { return nil }
            return "is \"\(value)\"; \(market.name) measures only the home page, as \(pattern.example) (measured as given)"
        },
        MetadataFieldRule(key: "segA", requiredFor: [], requiredInSimplifiedFor: [.staticPage], checkedFor: [.staticPage]) { value, _ in
            value.count > 25 ? "is \(value.count) characters; static pages allow at most 25" : nil
        },
        // The simplified content table: "name of program (100 character limit)", and the standard episode id.
        MetadataFieldRule(key: "assetName", requiredFor: [], requiredInSimplifiedFor: [.content], checkedFor: [.content]) { value, _ in
            value.count > 100 ? "is \(value.count) characters; the simplified API allows at most 100" : nil
        },
        MetadataFieldRule(key: "crossId1", requiredFor: [], requiredInSimplifiedFor: [.content], checkedFor: []) { _, _ in nil },
        // The API reference's own radio example sends "3": a warning (M11a).
        MetadataFieldRule(key: "stationType", requiredFor: [.station], checkedFor: [.station], warnsOnly: true) { value, _ in
            ["1", "2"].contains(value) ? nil
                : "\"\(value)\" is not '1' (over-the-air stream, same ads) or '2' (different ads), as Digital Audio metadata asks; sent as given"
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
