/// Turns the string dictionary of a `loadMetadata` call into typed metadata plus the problems
/// found, using ``MetadataFieldRule/all`` and the market's limits.
public enum MetadataParser {
    /// The outcome of parsing one `loadMetadata` call.
    public struct Result: Sendable, Equatable {
        /// The metadata to measure, or nil when the call cannot be measured at all (unknown `type`).
        package let metadata: AssetMetadata?
        /// Problems to report; the asset is measured anyway when `metadata` is not nil.
        package let issues: [MetadataIssue]
    }

    /// Parses `values` for `market`, with the required keys of `tables`.
    package static func parse(_ values: [String: String], market: MarketProfile, tables: MetadataTables = .standard) -> Result {
        var issues: [MetadataIssue] = []
        let kind: MetadataKind
        let adType: AdType?
        switch values["type"]?.asciiLowercased {
        case nil, "":
            issues.append(MetadataIssue(key: "type", problem: "is missing; measured as content", code: .emptyValue))
            kind = .content
            adType = nil
        case "content":
            // DTVR metadata has adModel and no assetid (the DTVR guide); with an assetid it is DCR too.
            kind = values["adModel"] != nil && values["assetid"] == nil ? .dtvr : .content
            adType = nil
        case "radio":
            kind = .station
            adType = nil
        case "static":
            kind = .staticPage
            adType = nil
        case let raw?:
            guard let type = AdType(rawValue: raw) else {
                issues.append(MetadataIssue(
                    key: "type",
                    problem: "\"\(values["type"]!)\" is not content, static, radio, preroll, midroll, postroll or ad; call ignored",
                    code: .failedParseMetadata))
                return Result(metadata: nil, issues: issues)
            }
            kind = .ad
            adType = type
        }

        for rule in MetadataFieldRule.all {
            guard let value = values[rule.key], !value.isEmpty else {
                if rule.isRequired(for: kind, in: tables) {
                    issues.append(MetadataIssue(key: rule.key, problem: "is missing", code: .emptyValue))
                }
                continue
            }
            if rule.checkedFor.contains(kind), let problem = rule.check(value, market) {
                issues.append(MetadataIssue(key: rule.key, problem: problem, code: rule.warnsOnly ? nil : .failedParseMetadata))
            }
        }

        let assetID = values["assetid", default: ""]
        let length = values["length"].flatMap { Int64($0) }.flatMap { $0 >= 0 ? $0 : nil }
        let dtvr = values["adModel"].flatMap(AdLoadType.init(rawValue:)).map {
            DTVRMetadata(adModel: $0, channelName: values["channelName", default: ""])
        }
        let metadata: AssetMetadata
        if kind == .dtvr {
            guard let dtvr else { return Result(metadata: nil, issues: issues) }
            metadata = .dtvr(dtvr)
        } else if kind == .staticPage {
            metadata = .staticPage(StaticMetadata(
                section: values["section", default: ""], assetID: assetID, segA: values["segA", default: ""],
                segB: values["segB", default: ""], segC: values["segC", default: ""]))
        } else if kind == .station {
            metadata = .station(StationMetadata(
                assetID: assetID, stationType: values["stationType", default: ""], provider: values["provider", default: ""]))
        } else if let adType {
            metadata = .ad(AdMetadata(
                type: adType, assetID: assetID, title: values["title", default: ""],
                length: length, podIndex: values["adldx"] ?? values["adIdx"] ?? ""))
        } else {
            var content = ContentMetadata(
                assetID: assetID,
                program: values["program", default: ""],
                title: values["title", default: ""],
                length: length,
                airdate: values["airdate", default: ""],
                fullEpisode: values["isfullepisode"].flatMap(FullEpisode.init(metadataValue:)),
                adLoadType: values["adloadtype"].flatMap(AdLoadType.init(rawValue:)))
            content.segA = values["segA", default: ""]
            content.segB = values["segB", default: ""]
            content.segC = values["segC", default: ""]
            content.crossId1 = values["crossId1", default: ""]
            content.crossId2 = values["crossId2", default: ""]
            content.programGenre = values["progen", default: ""]
            content.clientID = values["clientid", default: ""]
            content.subbrand = values["subbrand", default: ""]
            content.pipMode = values["pipMode", default: ""]
            content.isAudio = values["isAudio"]?.asciiLowercased == "true"
            content.dtvr = dtvr
            metadata = .content(content)
        }
        return Result(metadata: metadata, issues: issues)
    }
}
