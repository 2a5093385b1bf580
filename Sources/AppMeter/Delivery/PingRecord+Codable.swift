import MeterWire

// The queue file's JSON form of a record (docs/census.md §6, read back after an upgrade): the
// keys are the ones the synthesized conformances wrote before the records moved into the
// Foundation-free core, where Codable does not exist.

extension AssetKind: Codable {}

extension PingParameter: Codable {
    private enum CodingKeys: String, CodingKey { case name, value }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(try container.decode(String.self, forKey: .name), try container.decode(String.self, forKey: .value))
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(value, forKey: .value)
    }
}

extension Ping: Codable {
    private enum CodingKeys: String, CodingKey { case id, kind, assetKind, assetID, creditedSeconds, createdAt, parameters }

    /// Reads a ping as the queue file stores it.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            id: try container.decode(String.self, forKey: .id),
            kind: try container.decode(PingKind.self, forKey: .kind),
            assetKind: try container.decode(AssetKind.self, forKey: .assetKind),
            assetID: try container.decode(String.self, forKey: .assetID),
            creditedSeconds: try container.decode(Int64.self, forKey: .creditedSeconds),
            createdAt: try container.decode(Double.self, forKey: .createdAt),
            parameters: try container.decode([PingParameter].self, forKey: .parameters))
    }

    /// Writes a ping as the queue file stores it.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(kind, forKey: .kind)
        try container.encode(assetKind, forKey: .assetKind)
        try container.encode(assetID, forKey: .assetID)
        try container.encode(creditedSeconds, forKey: .creditedSeconds)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(parameters, forKey: .parameters)
    }
}

extension PingRecord: Codable {
    private enum CodingKeys: String, CodingKey { case ping, recovered, body, route }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            ping: try container.decode(Ping.self, forKey: .ping),
            recovered: try container.decode(Bool.self, forKey: .recovered),
            body: try container.decodeIfPresent(String.self, forKey: .body),
            route: try container.decodeIfPresent(String.self, forKey: .route))
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(ping, forKey: .ping)
        try container.encode(recovered, forKey: .recovered)
        try container.encodeIfPresent(body, forKey: .body)
        try container.encodeIfPresent(route, forKey: .route)
    }
}
