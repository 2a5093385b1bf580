import MeasurementCore
import MeterWire

/// The pings of one AMP page view's replay as the census stores them, read as they are built:
/// each through the validator any SDK's ping goes through, then held to its kind's bound
/// (``CreditBounds``) and to what is left of the page view's own (census-decisions.md S22),
/// first built first credited.
struct PageViewCredit {
    /// Seconds the page view may still credit.
    private var allowed: Int64
    private let interval: Int64
    /// The last request's receipt, in Unix seconds: creation times are read no later than it
    /// plus the clock skew.
    private let lastReceipt: Int64
    /// The pings read so far, in build order.
    private(set) var pings: [IncomingPing] = []

    init(allowed: Int64, interval: Int64, lastReceipt: Int64) {
        self.allowed = allowed
        self.interval = interval
        self.lastReceipt = lastReceipt
    }

    /// True once the pings read credit all the page view may: any later ping credits nothing.
    var isSpent: Bool { allowed <= 0 }

    /// Reads `incoming`, a ping ``validate(_:)`` read, as the next built.
    mutating func take(validated incoming: IncomingPing) {
        var incoming = incoming
        CreditBounds.apply(to: &incoming, interval: interval, receivedAt: lastReceipt)
        let credited = min(incoming.creditedSeconds, max(0, allowed))
        incoming.overBoundSeconds += incoming.creditedSeconds - credited
        incoming.creditedSeconds = credited
        allowed -= credited
        pings.append(incoming)
    }

    /// `ping` through the validator any SDK's ping goes through: a function of the ping alone,
    /// so a replay carried forward reads each ping once (census-decisions.md AMP8).
    static func validate(_ ping: Ping) -> Result<IncomingPing, PingRejection> {
        let query = PingEncoder.query(for: ping, sendTime: MeterInstant(secondsSince1970: ping.createdAt))
        switch PingValidator.validate(query: Substring(query), uriLength: query.utf8.count) {
        case .success(let incoming): return .success(incoming)
        case .failure(let rejection):
            return .failure(PingRejection(reason: "AMP cloud API: \(rejection.reason)", category: rejection.category))
        }
    }
}
