/// Playhead values no player can mean, told to the app as error 15 with what to do instead: a
/// playhead that credits nothing without a word is the bug the app's owner finds months later.
package enum PlayheadCheck {
    /// 10^11 s after 1970 is past the year 5000: a playhead that large is milliseconds (today's
    /// Unix time in milliseconds is about 1.7 × 10^12), or garbage.
    package static let largestPlausible: Int64 = 100_000_000_000

    /// Why `position` cannot be a playhead, or nil when it can.
    package static func impossible(_ position: Int64) -> String? {
        if position < 0 { return "playheadPosition \(position) is negative; ignored" }
        if position >= largestPlausible {
            return "playheadPosition \(position) is past the year 5000 as Unix seconds: pass seconds (VOD: from the "
                + "start; live: since 1970), not milliseconds; ignored"
        }
        return nil
    }

    /// What to say once per asset when its playheads advance by about 1,000 per call.
    package static func milliseconds(asset: String) -> String {
        "playheadPosition advances by about 1,000 per call for \(asset): pass seconds, not milliseconds; "
            + "steps that long are taken for seeks and credit nothing"
    }
}
