public import Foundation

// The call trace's JSON form (docs/protocol.md §2h): the census decodes batches with these; the
// SDKs write them with ``CallTraceBatch/jsonBody`` (the core has no Foundation).

extension CallTraceBatch: Codable {
    private enum CodingKeys: String, CodingKey { case session, appid, sdk, entries }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(session: try container.decode(String.self, forKey: .session),
                  appid: try container.decode(String.self, forKey: .appid),
                  sdk: try container.decode(String.self, forKey: .sdk),
                  entries: try container.decode([CallTraceEntry].self, forKey: .entries))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(session, forKey: .session)
        try container.encode(appid, forKey: .appid)
        try container.encode(sdk, forKey: .sdk)
        try container.encode(entries, forKey: .entries)
    }

    /// The JSON body as bytes.
    public func body() -> Data { Data(jsonBody.utf8) }

    /// Reads a body, or says what is wrong with it: the census answers 400 with the reason.
    public static func decode(_ body: Data) -> Result<CallTraceBatch, WireFormatError> {
        guard body.count <= maxBodyBytes else {
            return .failure(WireFormatError("the trace body is over \(maxBodyBytes) bytes"))
        }
        let batch: CallTraceBatch
        do {
            batch = try JSONDecoder().decode(CallTraceBatch.self, from: body)
        } catch {
            return .failure(WireFormatError("the trace body is not a call trace batch: \(error)".prefix(300).description))
        }
        if let problem = batch.problem { return .failure(WireFormatError(problem)) }
        return .success(batch)
    }
}

extension CallTraceEntry: Codable {
    private enum CodingKeys: String, CodingKey { case seq, time, call, args, state, events, pings }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(seq: try container.decode(Int.self, forKey: .seq), time: try container.decode(Double.self, forKey: .time),
                  call: try container.decode(String.self, forKey: .call),
                  args: try container.decode([String: String].self, forKey: .args),
                  state: try container.decode(String.self, forKey: .state),
                  events: try container.decode([TracedEvent].self, forKey: .events),
                  pings: try container.decode([TracedPing].self, forKey: .pings))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(seq, forKey: .seq)
        try container.encode(time, forKey: .time)
        try container.encode(call, forKey: .call)
        try container.encode(args, forKey: .args)
        try container.encode(state, forKey: .state)
        try container.encode(events, forKey: .events)
        try container.encode(pings, forKey: .pings)
    }
}

extension TracedEvent: Codable {
    private enum CodingKeys: String, CodingKey { case code, isEvent, text }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(code: try container.decode(Int.self, forKey: .code), isEvent: try container.decode(Bool.self, forKey: .isEvent),
                  text: try container.decode(String.self, forKey: .text))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(code, forKey: .code)
        try container.encode(isEvent, forKey: .isEvent)
        try container.encode(text, forKey: .text)
    }
}

extension TracedPing: Codable {
    private enum CodingKeys: String, CodingKey { case id, query }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(id: try container.decode(String.self, forKey: .id), query: try container.decode(String.self, forKey: .query))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(query, forKey: .query)
    }
}
