public import Foundation

// The report's JSON form (docs/protocol.md §2f): the census decodes bodies with these; the SDK
// writes them with ``ViewabilityReport/jsonBody`` (the core has no Foundation).

extension ViewabilityReport.Series: CodingKey {}

extension ViewabilityReport.Item: Codable {
    public init(from decoder: any Decoder) throws {
        var fields = try decoder.unkeyedContainer()
        let value: ViewabilityReport.Value
        if let percent = try? fields.decode(Int.self) {
            value = .percent(percent)
        } else {
            value = .size(try fields.decode(String.self))
        }
        let startOffset = try fields.decode(Int64.self)
        let startTimestamp = try fields.decode(Int64.self)
        let duration = try fields.decode(Int64.self)
        // Bounded like a ping's c27, so that the sums cannot overflow whatever a body says.
        guard (0...ViewabilityReport.maxItemDuration).contains(duration) else {
            throw DecodingError.dataCorruptedError(in: fields, debugDescription: "duration must be 0 to 86,400 seconds")
        }
        self.init(value: value, startOffset: startOffset, startTimestamp: startTimestamp, duration: duration)
    }

    public func encode(to encoder: any Encoder) throws {
        var fields = encoder.unkeyedContainer()
        switch value {
        case .percent(let percent): try fields.encode(percent)
        case .size(let size): try fields.encode(size)
        }
        try fields.encode(startOffset)
        try fields.encode(startTimestamp)
        try fields.encode(duration)
    }
}

extension ViewabilityReport: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Series.self)
        var series: [Series: [Item]] = [:]
        for name in Series.allCases {
            series[name] = try container.decodeIfPresent([Item].self, forKey: name) ?? []
        }
        self.init(series: series)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Series.self)
        for name in Series.allCases { try container.encode(series[name] ?? [], forKey: name) }
    }

    /// The JSON body as bytes.
    public func body() -> Data { Data(jsonBody.utf8) }
}
