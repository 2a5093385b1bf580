import MeterContract

/// How a command shows in the call trace: the API call it came from and its arguments as the SDK
/// read them (typed values, so what the trace shows is what was measured).
extension MeterCommand {
    /// Arguments named by the contract (``TracedArgument``).
    private static func named(_ pairs: KeyValuePairs<TracedArgument, String>) -> [String: String] {
        TracedArgument.arguments(pairs)
    }

    /// The traced call name and arguments.
    var traced: (call: TracedCall, args: [String: String]) {
        switch self {
        case .play(let channel): (.play, channel.map { Self.named([.channelName: $0]) } ?? [:])
        case .loadMetadata(let parsed): (.loadMetadata, Self.arguments(of: parsed))
        case .playhead(let position): (.playheadPosition, Self.named([.position: String(position)]))
        // A build without the app-only parts takes neither (``MeterCore/hasAppOnlyParts``).
        case .id3(let tag): (.sendID3, MeterCore.hasAppOnlyParts ? Self.arguments(of: tag) : [:])
        case .track(let event): (.trackEvent, MeterCore.hasAppOnlyParts ? Self.arguments(of: event) : [:])
        case .ott(let status): (.updateOTT, Self.arguments(of: status))
        case .trackViewability(let target): (.trackViewability, Self.named([.viewTag: String(target.viewTag)]))
        case .viewability(let sample): (.trackViewability, Self.named([.visible: String(sample.visiblePercent),
                                                              .volume: String(sample.volumePercent)]))
        case .stop: (.stop, [:])
        case .end: (.end, [:])
        case .setDisabled(let disabled): (.appDisableApi, Self.named([.disabled: String(disabled)]))
        case .setDebug(let on): (.debug, Self.named([.on: String(on)]))
        case .setOptOut(let choice):
            (.userOptOut, choice.byAnotherInstance
                ? Self.named([.optOut: String(choice.optOut), .by: "another instance"]) : Self.named([.optOut: String(choice.optOut)]))
        case .configReceived(let answer): (.config, Self.named([.enabled: String(answer.enabled)]))
        case .report(let code, let text): (.report, Self.named([.code: String(code.rawValue), .text: text]))
        case .appInBackground: (.appInBackground, [:])
        case .appInForeground: (.appInForeground, [:])
        case .staticEnd: (.staticEnd, [:])
        case .appLaunched(let crashed): (.appLaunch, Self.named([.previousRunCrashed: String(crashed)]))
        case .wakeUp: (.wakeUp, [:])
        case .release: (.release, [:])
        }
    }

    /// The metadata keys of the guides, as parsed (and the problems found that the SDK reports as
    /// errors: a warning of M11a is no problem for certification either).
    static func arguments(of parsed: MetadataParser.Result) -> [String: String] {
        var args: [String: String] = [:]
        let errors = parsed.issues.filter { $0.code != nil }
        if !errors.isEmpty {
            args[.problems] = errors.map { "\($0.key) \($0.problem)" }.joined(separator: "; ")
        }
        guard let metadata = parsed.metadata else {
            args[.type] = "(unusable)"
            return args
        }
        args[.assetid] = metadata.assetID
        switch metadata {
        case .content(let content):
            args[.type] = "content"
            args[.program] = content.program
            args[.title] = content.title
            args[.length] = content.length.map(String.init) ?? ""
            args[.airdate] = content.airdate
            args[.isfullepisode] = content.fullEpisode?.rawValue ?? ""
            args[.adloadtype] = content.adLoadType?.rawValue ?? ""
            if content.isAudio { args[.audio] = "true" }
        case .ad(let ad):
            args[.type] = ad.type.rawValue
            args[.title] = ad.title
            args[.length] = ad.length.map(String.init) ?? ""
        case .station(let station):
            args[.type] = "radio"
            args[.stationType] = station.stationType
            args[.provider] = station.provider
        case .dtvr(let dtvr):
            args[.type] = "dtvr"
            args[.channelName] = dtvr.channelName
            args[.adModel] = dtvr.adModel.rawValue
        case .staticPage(let page):
            args[.type] = "static"
            args[.section] = page.section
        }
        return args
    }

    static func arguments(of tag: NielsenID3Tag) -> [String: String] {
        var args = Self.named([.tag: tag.ownerString, .length: String(tag.ownerString.utf8.count)])
        if let cid = tag.creditCID { args[.cid] = cid }
        if let offset = tag.pcOffset { args[.pcOffset] = String(offset) }
        if let offset = tag.fdOffset { args[.fdOffset] = String(offset) }
        return args
    }

    static func arguments(of event: TrackedEvent) -> [String: String] {
        var args = Self.named([.event: event.event.rawValue, .type: event.subject.rawValue])
        if let position = event.position { args[.position] = String(position) }
        if let id3 = event.id3 { args[.tag] = id3.ownerString }
        for (name, parsed) in [("content", event.content), ("ad", event.ad), ("static", event.staticPage)] {
            if let assetID = parsed?.metadata?.assetID { args[TracedArgument.assetid(of: name)] = assetID }
        }
        return args
    }

    static func arguments(of status: OTTStatus) -> [String: String] {
        Self.named([.ottStatus: status.isConnected ? "1" : "0", .ottType: status.connection?.rawValue ?? "",
           .ottDevice: status.device, .ottDeviceModel: status.deviceModel])
    }
}
