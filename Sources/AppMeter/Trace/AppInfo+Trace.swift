import Foundation

extension AppInfo {
    /// The appInfo key that turns the call trace on (`"true"`) or off (`"false"`) explicitly.
    public static let callTraceKey = "appmeter_trace"

    /// Whether the instance streams its call trace to the census (docs/certification.md): only to
    /// a census named with `nol_collectorURL` (the default collector has no trace endpoint), and
    /// then when ``callTraceKey`` says `true`, or, when it says nothing, when `nol_devDebug` is
    /// `DEBUG`, the level certification runs at. A production appInfo (no `nol_devDebug`) never
    /// traces.
    public var tracesCalls: Bool {
        // An unusable nol_collectorURL fell back to the default collector, which is never traced to.
        guard values["nol_collectorURL"] != nil, collectorURL.host?.hasSuffix("imrworldwide.com") == false else {
            return false
        }
        switch values[Self.callTraceKey]?.lowercased() {
        case "true", "1", "yes": return true
        case "false", "0", "no": return false
        default: return debugLevel == .debug
        }
    }
}
