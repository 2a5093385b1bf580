/// The dashboard's script, served as one file at `/dashboard.js`: its parts, one per pane, in the
/// order they run. Everything a ping or a trace carries is attacker-controlled: every part builds
/// elements with `textContent` and attributes through the DOM, never `innerHTML`, and no stored
/// value may make it throw: a time no `Date` can hold shows as the number it is, long text is cut
/// with an ellipsis (in full in its tooltip, up to a bound), lists of any length are filled
/// without spreading them into one call's arguments.
enum DashboardScript {
    static let js = [
        "\"use strict\";",
        DashboardCoreScript.js,
        "const pingFields = \(DashboardPingFields.json);",
        DashboardPingScript.js,
        DashboardSessionsScript.js,
        DashboardSessionScript.js,
        DashboardTimelineScript.js,
        DashboardSideScript.js,
    ].joined(separator: "\n")
}
