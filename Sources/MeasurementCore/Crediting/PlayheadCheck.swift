/// Playhead values no player can mean, told to the app as error 15 with what to do instead: a
/// playhead that credits nothing without a word is the bug the app's owner finds months later.
/// A 13-digit playhead is Unix time in milliseconds and is read as its seconds (decisions.md C1a).
package enum PlayheadCheck {
    /// 10^11 s after 1970 is past the year 5000: a playhead that large is milliseconds (today's
    /// Unix time in milliseconds is about 1.7 × 10^12), or garbage.
    package static let largestPlausible: Int64 = 100_000_000_000

    /// Thirteen digits: Unix time in milliseconds from 2001-09-09 to 2286, as the simplified
    /// guide's DTVR example (`"1501225191747"`, 2017-07-28) passes it.
    package static let unixMilliseconds: Range<Int64> = 1_000_000_000_000..<10_000_000_000_000

    /// `position` in seconds: a 13-digit value is Unix milliseconds, rounded down to its second;
    /// any other value is seconds already.
    package static func seconds(_ position: Int64) -> Int64 {
        unixMilliseconds.contains(position) ? position / 1_000 : position
    }

    /// Why `position` (in seconds, after ``seconds(_:)``) cannot be a playhead, or nil when it can.
    package static func impossible(_ position: Int64) -> String? {
        if position < 0 { return "playheadPosition \(position) is negative; ignored" }
        if position >= largestPlausible {
            return "playheadPosition \(position) is past the year 5000 as Unix seconds and is not 13-digit Unix "
                + "milliseconds: pass seconds (VOD: from the start; live: since 1970); ignored"
        }
        return nil
    }

    /// What to say once per asset when its playheads advance by about 1,000 per call.
    package static func milliseconds(asset: String) -> String {
        "playheadPosition advances by about 1,000 per call for \(asset): pass seconds, not milliseconds; "
            + "steps that long are taken for seeks and credit nothing"
    }
}
