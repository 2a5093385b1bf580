public import Foundation

/// What `MeterInstant` is beside Foundation: a `Date`, and `Codable` as it was when it was declared
/// here (`{"secondsSince1970": …}`), for the records and snapshots that hold one. The type itself
/// lives in the Foundation-free `MeasurementCore`, which builds for Embedded Swift.
extension MeterInstant: Codable {
    private enum CodingKeys: String, CodingKey { case secondsSince1970 }

    /// The instant as a `Date`.
    public var date: Date { Date(timeIntervalSince1970: secondsSince1970) }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(secondsSince1970: try container.decode(Double.self, forKey: .secondsSince1970))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(secondsSince1970, forKey: .secondsSince1970)
    }
}
