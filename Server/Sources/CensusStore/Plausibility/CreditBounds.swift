package import MeterWire

/// What one ping may credit at most, by kind (docs/census.md §4b): the rules as data, walked
/// cell by cell by `CreditBoundsTests`. Seconds a ping claims beyond its bound are stored with it
/// as over-bound and never credited; reports show them beside the credited seconds.
///
/// The day-per-ping refusal (``PingValidator``) stays the hard limit; these bounds are what the
/// SDKs can honestly send.
package enum CreditBounds {
    /// One limit on a ping's seconds.
    package enum Limit: Sendable, Equatable {
        /// A duration ping carries at most one duration-ping interval: the one the census announced
        /// to the app for AppMeter's pings (``AppRegistry/intervalBound(for:at:)``, which remembers a
        /// larger interval announced while pings could still be queued), or `original` seconds for
        /// the original SDKs' pings, which follow their own cadence.
        case interval(original: Int64)
        /// At most the asset's length (`sd`), for an on-demand asset that gives one.
        case assetLength
        /// At most the time from the ping's start (`c64`) to its creation (`c61`, no later than
        /// its receipt): foreground time cannot outrun the clock. Without a start, ``interval(original:)``.
        case sinceStart(original: Int64)
    }

    /// The limits of each kind; a ping's bound is the smallest that applies.
    package static let rules: [CreditKind: [Limit]] = [
        .content: [.interval(original: 300), .assetLength],
        .ad: [.interval(original: 300), .assetLength],
        .audio: [.interval(original: 300), .assetLength],
        .station: [.interval(original: 300)],
        .dtvr: [.interval(original: 300)],
        // The original static products' older cadence was 30 minutes.
        .static: [.interval(original: 1_800), .sinceStart(original: 1_800)],
        // The app's run time goes out when the app leaves the foreground: only the clock bounds it.
        .app: [.sinceStart(original: 1_800)],
    ]

    /// The slack over an interval: pings close on the first playhead or tag past it (ID3 tags
    /// come every few seconds), and clocks and rounding differ by a second or two.
    package static func tolerance(for interval: Int64) -> Int64 { interval / 10 + 10 }

    /// How far past its receipt a ping's creation time may be read (clocks disagree).
    package static let clockSkew: Int64 = 300
    /// The slack over an asset's length: players report a last playhead a second or two past it.
    package static let lengthSlack: Int64 = 2
    /// The slack over the time since a start: whole seconds rounded on both ends.
    package static let clockSlack: Int64 = 10

    /// What a DTVR tag ping (`at=id3`) credits itself, whatever its kind: nothing. The census
    /// credits DTVR from a session's tags together (``TagCredit``), never from one tag's `c27`.
    package static let tagPingBound: Int64 = 0

    /// The bound for `ping`, received at `receivedAt` (Unix seconds) by an app whose announced
    /// interval bound is `interval`.
    package static func bound(of ping: IncomingPing, interval: Int64, receivedAt: Int64) -> Int64 {
        if ping.pingType == PingKind.tag.wireValue { return tagPingBound }
        let claimed = ping.creditedSeconds.saturatingAdd(ping.overBoundSeconds)
        var bound = claimed
        for limit in rules[ping.kind] ?? [] {
            bound = min(bound, value(of: limit, ping, interval: interval, receivedAt: receivedAt))
        }
        return max(0, bound)
    }

    /// Moves the seconds `ping` claims beyond its bound to ``IncomingPing/overBoundSeconds``.
    package static func apply(to ping: inout IncomingPing, interval: Int64, receivedAt: Int64) {
        let claimed = ping.creditedSeconds.saturatingAdd(ping.overBoundSeconds)
        let credited = min(claimed, bound(of: ping, interval: interval, receivedAt: receivedAt))
        ping.creditedSeconds = credited
        ping.overBoundSeconds = claimed - credited
    }

    private static func value(of limit: Limit, _ ping: IncomingPing, interval: Int64, receivedAt: Int64) -> Int64 {
        switch limit {
        case .interval(let original):
            let base = ping.bounds.fromAppMeter ? interval : max(interval, original)
            return base + tolerance(for: base)
        case .assetLength:
            guard let length = ping.bounds.length, !ping.bounds.isLive else { return .max }
            return length.saturatingAdd(lengthSlack)
        case .sinceStart(let original):
            guard let start = ping.bounds.startedAt, start > 0, ping.createdAt >= start else {
                return value(of: .interval(original: original), ping, interval: interval, receivedAt: receivedAt)
            }
            let end = min(ping.createdAt, receivedAt.saturatingAdd(clockSkew))
            return max(0, end - start).saturatingAdd(clockSlack)
        }
    }
}

extension Int64 {
    /// `self + other`, held at the bounds instead of trapping: the operands come from the network.
    package func saturatingAdd(_ other: Int64) -> Int64 {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? (other > 0 ? .max : .min) : sum
    }
}
