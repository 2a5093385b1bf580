/// A crediting rule: how observations of one asset become credited seconds. Each product part of
/// the core keeps one rule value per asset, so the rule is data that tests can drive directly.
package protocol CreditingRule: Sendable, Equatable {
    /// What the rule observes (a playhead position, a tag, a foreground second…).
    associatedtype Observation
    /// Records `observation` and returns the seconds it credits.
    mutating func credit(_ observation: Observation) -> Int64
}

/// The DCR rule for one asset, on playhead positions alone (never on the time between calls, so
/// a test rig or a replay feeding playheads faster than real time is credited exactly):
///
/// - a step forward of 1 to ``maximumPlaybackStep`` seconds over the previous report credits the
///   seconds it covers: playback at 1×, faster playback (+2 per call at 2×) or a late report;
/// - a repeat credits nothing and keeps the reference (slower playback: +1 every other call at
///   0.5×, or a pause);
/// - a step back (a rewind) or a longer step forward (a seek) credits nothing and becomes the new
///   reference.
///
/// The same rule serves VOD (seconds from the start) and live (Unix seconds). Steps of about 1,000
/// per call are playheads in milliseconds: ``looksLikeMilliseconds`` says so after three of them.
public struct PlayheadCrediting: CreditingRule {
    /// The longest forward step taken for playback rather than a seek, in seconds: players offer
    /// rates up to 2× (some 3× or 4×), and report once a second give or take a timer's jitter,
    /// while their skip buttons jump 10 s or more.
    public static let maximumPlaybackStep: Int64 = 4

    /// The previous report, or nil before the first.
    public private(set) var reference: Int64?
    /// Consecutive steps of 900 to 1,100: milliseconds reported where seconds are expected.
    private var millisecondSteps = 0

    /// Creates a rule with no reference yet.
    public init() {}

    /// True once three consecutive steps were of about 1,000: the app reports milliseconds.
    public var looksLikeMilliseconds: Bool { millisecondSteps >= 3 }

    /// Records `position` and returns the seconds it credits (0 to ``maximumPlaybackStep``).
    public mutating func report(_ position: Int64) -> Int64 {
        defer { reference = position }
        guard let previous = reference else { return 0 }
        let (step, overflow) = position.subtractingReportingOverflow(previous)
        guard !overflow else { return 0 }
        millisecondSteps = (900...1_100).contains(step) ? millisecondSteps + 1 : 0
        return (1...Self.maximumPlaybackStep).contains(step) ? step : 0
    }

    /// Records `position` and returns the seconds it credits.
    package mutating func credit(_ position: Int64) -> Int64 {
        report(position)
    }
}
