import SQLKit

/// What the census could not take at face value for one app (docs/census.md §4b): seconds over
/// a ping's bound (never credited), and seconds its sessions credited beyond what their pings'
/// timestamps and the census's receipt times allow (flagged; credited unless the report
/// excludes flagged sessions).
package struct PlausibilityRow: Sendable, Equatable, Codable {
    /// The app id.
    package var appid: String
    /// Seconds credited (after the bounds, with flagged sessions).
    package var creditedSeconds: Int64
    /// Seconds pings claimed over their kind's bound: stored, not credited.
    package var overBoundSeconds: Int64
    /// Seconds flagged sessions credited beyond the time their pings span.
    package var flaggedSeconds: Int64
    /// Sessions flagged.
    package var flaggedSessions: Int64
    /// Viewable seconds flagged sessions' viewability pings counted beyond the time they span
    /// (``ViewabilityPlausibility``).
    package var flaggedViewableSeconds: Int64 = 0
    /// Audible seconds the same way.
    package var flaggedAudibleSeconds: Int64 = 0
    /// Sessions whose viewability pings the rule flags.
    package var flaggedViewabilitySessions: Int64 = 0

    /// Creates a row.
    package init(appid: String, creditedSeconds: Int64, overBoundSeconds: Int64, flaggedSeconds: Int64, flaggedSessions: Int64,
                flaggedViewableSeconds: Int64 = 0, flaggedAudibleSeconds: Int64 = 0, flaggedViewabilitySessions: Int64 = 0) {
        self.appid = appid
        self.creditedSeconds = creditedSeconds
        self.overBoundSeconds = overBoundSeconds
        self.flaggedSeconds = flaggedSeconds
        self.flaggedSessions = flaggedSessions
        self.flaggedViewableSeconds = flaggedViewableSeconds
        self.flaggedAudibleSeconds = flaggedAudibleSeconds
        self.flaggedViewabilitySessions = flaggedViewabilitySessions
    }

    /// Whether the row holds anything not taken at face value.
    package var holdsAnything: Bool {
        overBoundSeconds > 0 || flaggedSessions > 0 || flaggedViewabilitySessions > 0
    }
}

/// The session rule, as data: how much a session may credit given its pings' times.
package enum SessionPlausibility {
    /// The slack over the time a session's pings span, in seconds.
    package static let tolerance: Int64 = 30

    /// The rule for credit the census works out itself (a session's DTVR tags, ``TagCredit``):
    /// the seconds `credit` exceeds the shorter of the two spans plus `largest` and ``tolerance``;
    /// 0 or less is not flagged. Saturating: every operand came from a sender.
    static func excess(credit: Int64, createdSpan: Int64, receivedSpan: Int64, largest: Int64 = 0) -> Int64 {
        credit.saturatingAdd(-min(createdSpan, receivedSpan)).saturatingAdd(-largest).saturatingAdd(-tolerance)
    }

    /// One session's track of pings (``sessionsSQL``): the app's run time, or what it played or showed.
    ///
    /// A session may credit, per track, the shorter of the spans of its pings' creation times and
    /// of their receipt times, plus its largest ping (whose seconds came before its creation) and
    /// ``tolerance``. An offline queue delivered late, a test rig on a fast clock and fast
    /// playback all exceed it honestly, so the excess is flagged, not refused.
    static func sessionsSQL(where condition: SQLQueryString) -> SQLQueryString {
        """
        SELECT appid, session_id, excess FROM (
          SELECT appid, session_id, credit - (CASE WHEN created_span < received_span THEN created_span ELSE received_span END)
                 - largest - \(literal: Int(tolerance)) AS excess
          FROM (
            SELECT appid, session_id, CASE WHEN credit_kind = 'app' THEN 1 ELSE 0 END AS track,
                   SUM(credited_seconds) AS credit, MAX(credited_seconds) AS largest,
                   MAX(created_at) - MIN(created_at) AS created_span,
                   (MAX(received_at) - MIN(received_at)) / 1000 AS received_span
            FROM census_pings WHERE session_id <> '' AND \(condition)
            GROUP BY appid, session_id, CASE WHEN credit_kind = 'app' THEN 1 ELSE 0 END
          ) AS tracks
        ) AS judged WHERE excess > 0
        """
    }
}
