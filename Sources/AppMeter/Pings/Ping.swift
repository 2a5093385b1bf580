import MeterWire

/// One query parameter of a ping, in wire order.
public struct PingParameter: Sendable, Equatable, Codable, CustomStringConvertible {
    /// The parameter name (`c27`).
    public let name: String
    /// The unencoded value (`cln,60`).
    public let value: String

    /// Creates a parameter.
    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }

    /// `name=value`, unencoded.
    public var description: String { "\(name)=\(value)" }
}

/// A measurement ping, built once and sent (and, if need be, re-sent) unchanged but for its send
/// time: the census credits it once by ``id``.
public struct Ping: Sendable, Equatable, Codable {
    /// The unique ping id (`pingid`).
    public let id: String
    /// View or duration.
    public let kind: PingKind
    /// Content or ad.
    public let assetKind: AssetKind
    /// The asset id (`ai`).
    public let assetID: String
    /// The seconds this ping credits (`c27`).
    public let creditedSeconds: Int64
    /// When it was built (seconds since 1970).
    public let createdAt: Double
    /// Every parameter but `c62` (send time) and `rnd`, which the encoder adds at send time.
    public let parameters: [PingParameter]

    /// Creates a ping.
    public init(
        id: String, kind: PingKind, assetKind: AssetKind, assetID: String, creditedSeconds: Int64,
        createdAt: Double, parameters: [PingParameter]
    ) {
        self.id = id
        self.kind = kind
        self.assetKind = assetKind
        self.assetID = assetID
        self.creditedSeconds = creditedSeconds
        self.createdAt = createdAt
        self.parameters = parameters
    }

    /// The value of parameter `name`, if present.
    public subscript(name: String) -> String? {
        parameters.first { $0.name == name }?.value
    }
}
