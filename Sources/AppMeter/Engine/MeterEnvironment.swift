import Foundation

/// The outside world of an SDK instance: time, network, identity and cadence. Production code
/// uses ``MeterEnvironment/live``; tests and `meter demo` inject virtual time and a recording
/// or loopback transport.
public struct MeterEnvironment: Sendable {
    /// The wall clock used to stamp calls and pings.
    public var clock: MeterClock
    /// How requests reach the collector.
    public var transport: PingTransport
    /// Session and ping ids.
    public var identifiers: IdentifierSource
    /// Waits between delivery retries (seconds).
    public var sleep: @Sendable (Double) async -> Void
    /// A duration ping is sent at the latest after this many credited seconds of one asset.
    public var durationPingInterval: Int64

    /// Creates an environment.
    public init(
        clock: MeterClock = SystemClock(),
        transport: PingTransport = URLSessionTransport(),
        identifiers: IdentifierSource = RandomIdentifierSource(),
        sleep: @escaping @Sendable (Double) async -> Void = { seconds in
            try? await Task.sleep(nanoseconds: UInt64(max(0, seconds) * 1_000_000_000))
        },
        durationPingInterval: Int64 = 60
    ) {
        self.clock = clock
        self.transport = transport
        self.identifiers = identifiers
        self.sleep = sleep
        self.durationPingInterval = durationPingInterval
    }

    /// The real clock, `URLSession` and random ids.
    public static var live: MeterEnvironment { MeterEnvironment() }
}
