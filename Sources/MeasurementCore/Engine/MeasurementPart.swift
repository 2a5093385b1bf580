/// One product's measurement inside ``MeterCore``: it keeps what it measures and one
/// ``CreditingRule`` value per asset, and writes pings and checkpoints into an ``Emission``.
///
/// The core routes each product's commands to its part and asks every part to report or close
/// what is open when something applies to all of them (`stop`, the kill switches, an opt-out
/// change, release). docs/architecture.md says where a new product plugs in.
protocol MeasurementPart: Sendable {
    /// The part's crediting rule.
    associatedtype Rule: CreditingRule

    /// Sends the credit not yet in a ping and keeps measuring (the ping identity is about to change).
    mutating func reportPending(_ context: PingContext, at time: MeterInstant, _ out: inout Emission)

    /// Stops measuring what is open, sending its credit; `final` marks the end of the content.
    mutating func close(final: Bool, _ context: PingContext, at time: MeterInstant, _ out: inout Emission)
}
