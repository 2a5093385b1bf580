/// Runs timed commands through a fresh ``MeterCore`` as ``MeterRunner`` does — each part's wake-up
/// handled at its own deadline before any later command — and keeps the pings it builds, without
/// delivery, storage or a clock. The census uses it to credit events that arrive as requests (the
/// Google AMP cloud API) with the engine's own rules rather than a second copy of them.
public struct CoreReplay: Sendable {
    package private(set) var core: MeterCore
    /// Every ping built so far, in order (checkpoints are left out: nothing here can be killed).
    public private(set) var pings: [Ping] = []
    /// Events and errors the core reported, in order.
    package private(set) var reports: [(code: MeterEventCode, description: String)] = []

    public init(_ settings: MeterCore.Settings) {
        core = MeterCore(settings)
    }

    /// Handles the wake-ups due by `time`, then `command` at `time`.
    public mutating func handle(_ command: MeterCommand, at time: MeterInstant) {
        advance(to: time)
        run(command, at: time)
    }

    /// Handles every wake-up due by `time`.
    package mutating func advance(to time: MeterInstant) {
        // Each wake-up moves the next one later; the bound only guards against a core that would not.
        for _ in 0..<100_000 {
            guard let due = core.partsWakeUp, due <= time else { return }
            run(.wakeUp, at: due)
        }
    }

    private mutating func run(_ command: MeterCommand, at time: MeterInstant) {
        var effects: [MeterEffect] = []
        core.handle(command, at: time, into: &effects)
        for effect in effects {
            switch effect {
            case .enqueue(let record, _): pings.append(record.ping)
            case .report(let code, let description): reports.append((code, description))
            default: break
            }
        }
    }
}
