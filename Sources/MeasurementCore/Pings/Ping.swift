package import MeterContract

/// One query parameter of a ping, in wire order.
package struct PingParameter: Sendable, Equatable, CustomStringConvertible {
    /// The parameter name (`c27`).
    package let name: String
    /// The unencoded value (`cln,60`).
    package private(set) var value: String

    /// Creates a parameter.
    package init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }

    /// `name=value`, unencoded.
    package var description: String { "\(name)=\(value)" }

    /// Sets the value to `field`'s prefix and `number`, in the value's own storage when it is not
    /// shared and has room (a number's digits are a small string; a checkpoint's credit and time
    /// have as many digits as the last one's, or one more in storage rounded up).
    mutating func setNumber(_ number: Int64, of field: PingField) {
        value.removeAll(keepingCapacity: true)
        value.append(field.prefix)
        value.append(String(number))
    }
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
    package private(set) var creditedSeconds: Int64
    /// When it was built (seconds since 1970).
    public private(set) var createdAt: Double
    /// Every parameter but `c62` (send time) and `rnd`, which the encoder adds at send time.
    package private(set) var parameters: [PingParameter]
    /// Where `c27` and `c61` are in ``parameters`` (nil: absent), found once when the ping is made:
    /// ``setCredit(_:createdAt:)`` changes them every five seconds of playback.
    private let creditIndex: Int?
    private let createdIndex: Int?

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
        creditIndex = parameters.firstIndex { $0.name == PingField.creditedSeconds.name }
        createdIndex = parameters.firstIndex { $0.name == PingField.createdAt.name }
    }

    /// Makes this ping credit `seconds`, created at `time` (its `c27` and `c61` with them), or
    /// answers false, unchanged, when it lacks either parameter. In place: a checkpoint is the last
    /// one's ping with these two changed, every five seconds of playback, and once the last one's
    /// record is written its parameters are this ping's alone, so nothing is copied or allocated.
    package mutating func setCredit(_ seconds: Int64, createdAt time: MeterInstant) -> Bool {
        guard let credited = creditIndex, let created = createdIndex else { return false }
        parameters[credited].setNumber(seconds, of: .creditedSeconds)
        parameters[created].setNumber(time.unixSeconds, of: .createdAt)
        creditedSeconds = seconds
        createdAt = time.secondsSince1970
        return true
    }

    /// The value of parameter `name`, if present.
    package subscript(name: String) -> String? {
        parameters.first { $0.name == name }?.value
    }
}
