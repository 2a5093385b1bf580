/// Something on the wire that does not follow the contract.
public struct WireFormatError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A sentence naming what is wrong.
    public let reason: String

    /// Creates an error.
    public init(_ reason: String) { self.reason = reason }

    public var description: String { reason }
}
