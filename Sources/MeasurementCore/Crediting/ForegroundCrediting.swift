/// The static rule for one page: the whole seconds it spent in the foreground, from the time it was
/// shown (or brought back to the foreground) to each later observation, carrying fractions over. A
/// gap longer than ``maxGap`` (the process was suspended, or nobody woke the core) credits nothing.
public struct ForegroundCrediting: CreditingRule {
    /// The app's state from `time` on.
    package struct Observation: Sendable, Equatable {
        package var time: MeterInstant
        package var foreground: Bool

        package init(time: MeterInstant, foreground: Bool) {
            self.time = time
            self.foreground = foreground
        }
    }

    /// The 30-minute rule of the guides: a gap longer than this between two events is a pause.
    public static let maxGap: Double = 1800

    package private(set) var since: Observation?
    private var carried: Double = 0

    package init() {}

    package mutating func credit(_ observation: Observation) -> Int64 {
        defer { since = observation }
        guard let since, since.foreground else {
            carried = 0
            return 0
        }
        let elapsed = observation.time - since.time
        guard elapsed >= 0, elapsed <= Self.maxGap else {
            carried = 0
            return 0
        }
        let total = elapsed + carried
        let whole = total.rounded(.down)
        carried = total - whole
        return Int64(whole)
    }
}
