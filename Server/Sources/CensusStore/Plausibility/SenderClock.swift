/// The times a sender gives (a ping's `c61`, a trace entry's time, an AMP request's `utc`, a
/// viewability ping's creation time) as the census dates, orders and spans with them: held to a
/// window around the census's own receipt (census-decisions.md S42). The rule as data, walked row
/// by row by `SenderClockTests`.
///
/// A sender's clock decides nothing beyond that window: two pings dated 1970 and 2100 once
/// widened a session's span over an app's whole history, and every read of the session then
/// scanned it; traces dated 2100 headed the session lists until their retention. The raw value
/// stays stored for the record (the ping's query, the trace entry, the AMP request's body); what
/// a ping credits is bounded before its time is held (``CreditBounds``), so no honest second moves.
package enum SenderClock {
    /// How far ahead of its receipt a sender's time is read: clocks disagree by a few minutes
    /// (the bound ``CreditBounds`` reads a ping's creation with).
    package static let ahead: Int64 = CreditBounds.clockSkew
    /// How far behind its receipt a sender's time is read: the SDK's offline queue keeps a ping
    /// at most 31 days (decisions.md D7), so an older time is no delivery the SDK makes.
    package static let behind: Int64 = AppRegistry.queueWindow

    /// The time read for `time` (Unix seconds) received at `receivedAt` (Unix seconds): within
    /// [`receivedAt` − ``behind``, `receivedAt` + ``ahead``]; a time the sender did not give (0,
    /// as a ping without `c61` is read) is its receipt.
    package static func held(_ time: Int64, receivedAt: Int64) -> Int64 {
        guard time != 0 else { return receivedAt }
        return min(max(time, receivedAt.saturatingAdd(-behind)), receivedAt.saturatingAdd(ahead))
    }

    /// ``held(_:receivedAt:)`` in milliseconds (AMP's `utc`, receipts as stored).
    package static func held(milliseconds time: Int64, receivedAt: Int64) -> Int64 {
        guard time != 0 else { return receivedAt }
        return min(max(time, receivedAt.saturatingAdd(-behind * 1000)), receivedAt.saturatingAdd(ahead * 1000))
    }

    /// ``held(_:receivedAt:)`` for a trace entry's time (Unix seconds with a fraction), received
    /// at `receivedAt` (milliseconds); a time that is no number is its receipt.
    package static func held(seconds time: Double, receivedAtMilliseconds receivedAt: Int64) -> Double {
        let receipt = Double(receivedAt) / 1000
        guard time.isFinite, time != 0 else { return receipt }
        return min(max(time, receipt - Double(behind)), receipt + Double(ahead))
    }
}
