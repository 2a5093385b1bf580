import Foundation

/// The source of time for an SDK instance: what "now" is, and how to wait until a later instant.
///
/// Every public call is stamped with ``now()`` on the caller's thread, so pings carry the time of
/// the call even though they are built later. Retries, config requests and the engine's wake-ups
/// wait with ``sleep(until:)``, so a ``VirtualClock`` drives all of them in tests.
public protocol MeterClock: Sendable {
    /// The current instant.
    func now() -> MeterInstant
    /// Returns at `deadline` (at once when it has passed); throws `CancellationError` when the
    /// task is cancelled first.
    func sleep(until deadline: MeterInstant) async throws
}

extension MeterClock {
    /// Waits `seconds` from now.
    public func sleep(for seconds: Double) async throws {
        try await sleep(until: now() + seconds)
    }
}

/// The real wall clock.
public struct SystemClock: MeterClock {
    /// Creates the system clock.
    public init() {}

    /// From `Date()`.
    public func now() -> MeterInstant { MeterInstant(secondsSince1970: Date().timeIntervalSince1970) }

    /// `Task.sleep` until `deadline`.
    public func sleep(until deadline: MeterInstant) async throws {
        let seconds = deadline - now()
        guard seconds > 0 else { return try Task.checkCancellation() }
        try await Task.sleep(nanoseconds: UInt64(min(seconds, 1e9) * 1_000_000_000))
    }
}
