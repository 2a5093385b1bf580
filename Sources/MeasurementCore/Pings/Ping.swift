package import MeterContract

/// One query parameter of a ping, in wire order.
package struct PingParameter: Sendable, Equatable, CustomStringConvertible {
    /// The parameter name (`c27`).
    package let name: String
    /// The unencoded value (`cln,60`).
    package let value: String

    /// Creates a parameter.
    package init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }

    /// `name=value`, unencoded.
    package var description: String { "\(name)=\(value)" }
}

/// A measurement ping, built once and sent (and, if need be, re-sent) unchanged but for its send
/// time: the census credits it once by ``id``.
public struct Ping: Sendable, Equatable {
    /// The unique ping id (`pingid`).
    package let id: String
    /// View or duration.
    package let kind: PingKind
    /// Content or ad.
    package let assetKind: AssetKind
    /// The asset id (`ai`).
    package let assetID: String
    /// The seconds this ping credits (`c27`).
    package let creditedSeconds: Int64
    /// When it was built (seconds since 1970).
    public let createdAt: Double
    /// Every parameter but `c62` (send time) and `rnd`, which the encoder adds at send time.
    package let parameters: [PingParameter]

    /// Creates a ping.
    package init(
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

    /// The same ping crediting `seconds`, created at `createdAt` (its `c27` and `c61` changed),
    /// or nil when it lacks either parameter.
    func withCredit(_ seconds: Int64, createdAt time: MeterInstant) -> Ping? {
        var parameters = self.parameters
        guard let credited = parameters.firstIndex(where: { $0.name == PingField.creditedSeconds.name }),
              let created = parameters.firstIndex(where: { $0.name == PingField.createdAt.name })
        else { return nil }
        parameters[credited] = PingParameter(PingField.creditedSeconds.name, PingField.creditedSeconds.wireValue(String(seconds)))
        parameters[created] = PingParameter(PingField.createdAt.name, PingField.createdAt.wireValue(String(time.unixSeconds)))
        return Ping(id: id, kind: kind, assetKind: assetKind, assetID: assetID, creditedSeconds: seconds,
                    createdAt: time.secondsSince1970, parameters: parameters)
    }

    /// The value of parameter `name`, if present.
    package subscript(name: String) -> String? {
        parameters.first { $0.name == name }?.value
    }
}
