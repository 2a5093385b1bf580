/// A point in wall-clock time: seconds since 1970-01-01 UTC. Calls are stamped with one, pings
/// carry them as Unix seconds, and wake-ups and retries are scheduled at them.
public struct MeterInstant: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Seconds since 1970-01-01 UTC.
    public var secondsSince1970: Double

    /// Creates an instant.
    public init(secondsSince1970: Double) {
        self.secondsSince1970 = secondsSince1970
    }

    /// Whole Unix seconds (rounded down), as pings carry them.
    public var unixSeconds: Int64 { Int64(secondsSince1970.rounded(.down)) }

    /// The instant `seconds` later.
    public static func + (instant: MeterInstant, seconds: Double) -> MeterInstant {
        MeterInstant(secondsSince1970: instant.secondsSince1970 + seconds)
    }

    /// The seconds from `earlier` to `later`.
    public static func - (later: MeterInstant, earlier: MeterInstant) -> Double {
        later.secondsSince1970 - earlier.secondsSince1970
    }

    public static func < (lhs: MeterInstant, rhs: MeterInstant) -> Bool {
        lhs.secondsSince1970 < rhs.secondsSince1970
    }

    public var description: String { String(secondsSince1970) }
}
