import Foundation

/// The source of wall-clock time for an SDK instance.
///
/// Every public call is stamped with `now()` on the caller's thread, so pings carry the time of the
/// call even though they are built later. Tests and `meter demo` inject a ``VirtualClock``.
public protocol MeterClock: Sendable {
    /// Seconds since 1970-01-01 UTC.
    func now() -> Double
}

/// The real wall clock.
public struct SystemClock: MeterClock {
    /// Creates the system clock.
    public init() {}

    /// Seconds since 1970-01-01 UTC, from `Date()`.
    public func now() -> Double { Date().timeIntervalSince1970 }
}

/// A clock that only moves when told to: scenario tests and `meter demo` advance it one second
/// per simulated playhead tick, so an hour of viewing replays in milliseconds with exact timestamps.
public final class VirtualClock: MeterClock, @unchecked Sendable {
    private let time: Locked<Double>

    /// Creates a virtual clock that starts at `start` (seconds since 1970).
    public init(start: Double = 1_700_000_000) {
        time = Locked(start)
    }

    /// The current virtual time.
    public func now() -> Double { time.withLock { $0 } }

    /// Moves the clock forward by `seconds`.
    public func advance(by seconds: Double) {
        time.withLock { $0 += seconds }
    }

    /// Sets the clock to `seconds` since 1970.
    public func set(to seconds: Double) {
        time.withLock { $0 = seconds }
    }
}
