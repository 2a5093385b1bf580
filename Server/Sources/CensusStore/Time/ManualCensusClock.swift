import NIOConcurrencyHelpers

/// A clock that stands still until it is set or moved: tests date receipts, retention and
/// intervals with it (``CensusClock``).
package final class ManualCensusClock: CensusClock {
    private let now: NIOLockedValueBox<Int64>

    /// A clock at `milliseconds` since 1970.
    package init(milliseconds: Int64) {
        now = NIOLockedValueBox(milliseconds)
    }

    /// A clock at `seconds` since 1970.
    package convenience init(seconds: Int64) {
        self.init(milliseconds: seconds * 1000)
    }

    /// Where the clock stands.
    package func milliseconds() -> Int64 { now.withLockedValue { $0 } }

    /// Moves the clock by `seconds` (back when negative).
    package func advance(seconds: Int64) {
        now.withLockedValue { $0 += seconds * 1000 }
    }

    /// Sets the clock to `seconds` since 1970.
    package func set(seconds: Int64) {
        now.withLockedValue { $0 = seconds * 1000 }
    }
}
