import NIOConcurrencyHelpers

/// The last replay of recent AMP page views, kept by one ``PingStore`` and its copies, so that a
/// page view's next request in `utc` order carries it forward instead of replaying every event
/// again (census-decisions.md AMP8). Bounded: at most ``capacity`` page views and
/// ``pingCapacity`` pings among them, the least recently used going first; a page view not held
/// is replayed whole, as after a restart or on another server sharing the database.
///
/// A request takes its page view's state out (``take(_:)``) and puts the new one back
/// (``keep(_:for:)``) only once its writes are done, so a failure in between leaves nothing to
/// carry forward; one page view is replayed one request at a time (``PageViewTurns``).
final class AMPReplayCache: Sendable {
    /// The most page views held.
    static let capacity = 4_096
    /// The most pings held among them (a page view of 1,440 requests 10 s apart holds some 240).
    static let pingCapacity = 100_000

    /// What replays cost, for tests: events read from storage, pings written, replays.
    struct Work: Sendable, Equatable {
        var eventsRead = 0
        var pingsWritten = 0
        var pingsDeleted = 0
        var wholeReplays = 0
        var carriedForward = 0
    }

    private struct Held {
        var states: [String: (state: AMPReplayState, used: UInt64)] = [:]
        var pings = 0
        var clock: UInt64 = 0
    }

    private let held = NIOLockedValueBox(Held())
    private let counted = NIOLockedValueBox(Work())

    init() {}

    /// The state of `pageView`'s last replay, removed, or nil.
    func take(_ pageView: String) -> AMPReplayState? {
        held.withLockedValue { held in
            guard let (state, _) = held.states.removeValue(forKey: pageView) else { return nil }
            held.pings -= Self.weight(state)
            return state
        }
    }

    /// Holds `state` as `pageView`'s last replay, dropping the least recently used past the bounds.
    func keep(_ state: AMPReplayState, for pageView: String) {
        held.withLockedValue { held in
            held.clock += 1
            if let old = held.states.updateValue((state, held.clock), forKey: pageView) { held.pings -= Self.weight(old.state) }
            held.pings += Self.weight(state)
            guard held.states.count > Self.capacity || held.pings > Self.pingCapacity else { return }
            // An eighth at a time, oldest first: eviction costs a sort every capacity/8 keeps.
            var oldest = held.states.sorted { $0.value.used < $1.value.used }.makeIterator()
            let floor = Self.capacity - Self.capacity / 8
            while held.states.count > floor || held.pings > Self.pingCapacity - Self.pingCapacity / 8,
                  let (key, value) = oldest.next() {
                held.states[key] = nil
                held.pings -= Self.weight(value.state)
            }
        }
    }

    /// How many page views it holds.
    var count: Int { held.withLockedValue { $0.states.count } }

    /// The work counted so far.
    var work: Work { counted.withLockedValue { $0 } }

    func count(_ update: (inout Work) -> Void) { counted.withLockedValue(update) }

    private static func weight(_ state: AMPReplayState) -> Int { state.validated.count + state.written.count + 1 }
}
