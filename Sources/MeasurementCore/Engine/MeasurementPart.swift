/// One product's measurement inside ``MeterCore``: it keeps what it measures and one
/// ``CreditingRule`` value per asset, and turns credit into pings and checkpoints through
/// ``Emission/settle(_:of:_:_:at:durationPing:)``, the one step every part shares.
///
/// The core routes each product's own commands to its part (playheads, tags, wake-ups) and walks
/// its stream parts through ``StreamPart/take(_:_:at:_:)`` for what applies to all of them.
/// docs/architecture.md says where a new product plugs in.
protocol MeasurementPart: Sendable {
    /// The part's crediting rule.
    associatedtype Rule: CreditingRule

    /// Sends the credit not yet in a ping and keeps measuring (the ping identity is about to change).
    mutating func reportPending(_ context: PingContext, at time: MeterInstant, _ out: inout Emission)

    /// Stops measuring what is open, sending its credit; `final` marks the end of the content.
    mutating func close(final: Bool, _ context: PingContext, at time: MeterInstant, _ out: inout Emission)
}

/// A part measuring the app's streams and pages (DCR, DTVR, static): each takes from
/// `loadMetadata` what is its own, and `end`, a new viewing session and the census's interval
/// apply to every one.
protocol StreamPart: MeasurementPart {
    /// How the part's credit becomes pings.
    var cadence: CreditCadence { get set }

    /// A new viewing session (`c59`): assets get a view ping again.
    mutating func startSession()

    /// `loadMetadata`: the part opens, updates or closes what it measures.
    mutating func load(_ metadata: AssetMetadata, _ context: PingContext, at time: MeterInstant, _ out: inout Emission)

    /// `end`: what is open ends with its final ping, and references are forgotten.
    mutating func end(_ context: PingContext, at time: MeterInstant, _ out: inout Emission)
}

/// What the core asks of every stream part at once.
enum StreamPartStep {
    case load(AssetMetadata)
    case startSession
    case reportPending
    case close
    case end
    case setDurationPingInterval(Int64)
}

extension StreamPart {
    /// Takes one step that applies to every stream part.
    mutating func take(_ step: StreamPartStep, _ context: PingContext, at time: MeterInstant, _ out: inout Emission) {
        switch step {
        case .load(let metadata): load(metadata, context, at: time, &out)
        case .startSession: startSession()
        case .reportPending: reportPending(context, at: time, &out)
        case .close: close(final: false, context, at: time, &out)
        case .end: end(context, at: time, &out)
        case .setDurationPingInterval(let seconds): cadence.durationPingInterval = seconds
        }
    }
}
