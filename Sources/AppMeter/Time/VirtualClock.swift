/// A clock that moves only when told to, as a test clock does: scenario tests and `meter demo`
/// advance it one second per simulated playhead, so an hour of viewing replays in milliseconds
/// with exact timestamps, and every wait (retry backoff, config retry, engine wake-up) ends
/// exactly when the clock passes its deadline, never on the real clock.
public final class VirtualClock: MeterClock {
    private struct Sleeper {
        let deadline: MeterInstant
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now: MeterInstant
        var sleepers: [Int: Sleeper] = [:]
        var cancelled: Set<Int> = []
        var nextID = 0
    }

    private let state: Locked<State>

    /// Creates a clock at `start` seconds since 1970.
    public init(start: Double = 1_700_000_000) {
        state = Locked(State(now: MeterInstant(secondsSince1970: start)))
    }

    /// The current virtual instant.
    public func now() -> MeterInstant { state.withLock { $0.now } }

    /// Suspends until the clock is advanced to `deadline` or past it.
    public func sleep(until deadline: MeterInstant) async throws {
        try Task.checkCancellation()
        let id = state.withLock { state -> Int in
            state.nextID += 1
            return state.nextID
        }
        defer { _ = state.withLock { $0.cancelled.remove(id) } }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let immediate: Result<Void, any Error>? = state.withLock { state in
                    if state.cancelled.contains(id) { return .failure(CancellationError()) }
                    if deadline <= state.now { return .success(()) }
                    state.sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
                    return nil
                }
                if let immediate { continuation.resume(with: immediate) }
            }
        } onCancel: {
            let sleeper = state.withLock { state -> Sleeper? in
                state.cancelled.insert(id)
                return state.sleepers.removeValue(forKey: id)
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves the clock forward by `seconds`, waking every sleeper whose deadline has come.
    public func advance(by seconds: Double) {
        move { $0 + seconds }
    }

    /// Moves the clock to `instant` if that is later, waking every sleeper whose deadline has come.
    public func advance(to instant: MeterInstant) {
        move { max($0, instant) }
    }

    /// Sets the clock to `seconds` since 1970 (forward or back), waking sleepers whose deadline has come.
    public func set(to seconds: Double) {
        move { _ in MeterInstant(secondsSince1970: seconds) }
    }

    /// The deadlines of the waits in progress, earliest first.
    public var pendingDeadlines: [MeterInstant] {
        state.withLock { $0.sleepers.values.map(\.deadline).sorted() }
    }

    private func move(_ change: (MeterInstant) -> MeterInstant) {
        let due = state.withLock { state -> [Sleeper] in
            state.now = change(state.now)
            let now = state.now
            // A test moves the clock every simulated second: nothing is built while no one is due.
            guard state.sleepers.values.contains(where: { $0.deadline <= now }) else { return [] }
            let due = state.sleepers.filter { $0.value.deadline <= now }
            for id in due.keys { state.sleepers[id] = nil }
            return due.values.sorted { $0.deadline < $1.deadline }
        }
        for sleeper in due { sleeper.continuation.resume() }
    }
}
