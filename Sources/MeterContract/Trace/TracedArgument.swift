/// The argument names of call-trace entries (docs/protocol.md §2h), written once for the SDK that
/// records them and the census that certifies them. The metadata names are the guides' keys.
public enum TracedArgument: String, Sendable, CaseIterable {
    // init: appInfo's values as given, and the flavour in force.
    case devDebug = "nol_devDebug", sdkFlavor, appName = "appname"
    // init of a browser SDK instance: the guide's nlsQ(apid, instanceName, {nol_sdkDebug, …}).
    case apid, instanceName, sdkDebug = "nol_sdkDebug", sfcode = "nol_sfcode"
    // play, playheadPosition, the viewability calls, the switches.
    case channelName, position, viewTag, visible, volume, disabled, on, optOut, by, enabled
    // report and appLaunch.
    case code, text, previousRunCrashed
    // loadMetadata: the keys as parsed, and the problems found.
    case problems, type, assetid, program, title, length, airdate, isfullepisode, adloadtype, audio
    case stationType, provider, adModel, section
    // sendID3 (and trackEvent's id3Data).
    case tag, cid, pcOffset, fdOffset
    // trackEvent, updateOTT.
    case event, ottStatus, ottType, ottDevice, ottDeviceModel
    // truncated.
    case limit
}

extension TracedArgument {
    /// `trackEvent`'s asset id of one of its metadata objects (`content`, `ad`, `static`): `content.assetid`.
    public static func assetid(of subject: String) -> String { subject + "." + assetid.rawValue }
}

extension CallTraceEntry {
    /// The value of `argument`, or empty.
    public subscript(_ argument: TracedArgument) -> String { args[argument.rawValue] ?? "" }
}

extension Dictionary where Key == String, Value == String {
    /// A trace entry's argument, by its name in the contract.
    public subscript(_ argument: TracedArgument) -> String? {
        get { self[argument.rawValue] }
        set { self[argument.rawValue] = newValue }
    }
}

extension TracedArgument {
    /// A trace entry's arguments, named by the contract.
    public static func arguments(_ pairs: KeyValuePairs<TracedArgument, String>) -> [String: String] {
        // A loop rather than Dictionary(_:uniquingKeysWith:), which Embedded Swift cannot build.
        var arguments: [String: String] = [:]
        for (key, value) in pairs { arguments[key.rawValue] = value }
        return arguments
    }
}
