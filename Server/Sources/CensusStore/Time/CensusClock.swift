import Foundation

/// The census's wall clock: what "now" is when it stamps a receipt, holds a sender's time to the
/// window around it (``SenderClock``, census-decisions.md S42), reads an app's interval in force,
/// prunes past retention and signs an export.
///
/// One clock per store (``PingStore/clock``); it comes in with the store
/// (``RunningCensus/start(database:host:port:tls:access:policy:connectionLimits:accessLog:clock:logger:)``),
/// and a ``ManualCensusClock`` moves it in tests. What times the census's own work stays on
/// monotonic clocks (census-decisions.md S44).
package protocol CensusClock: Sendable {
    /// Now, in milliseconds since 1970 (UTC).
    func milliseconds() -> Int64
}

extension CensusClock {
    /// Now, in whole seconds since 1970 (UTC).
    package func seconds() -> Int64 { milliseconds() / 1000 }
}

/// The system's wall clock.
package struct SystemCensusClock: CensusClock {
    /// Creates the system clock.
    package init() {}

    /// From `Date.now`.
    package func milliseconds() -> Int64 { Int64(Date.now.timeIntervalSince1970 * 1000) }
}
