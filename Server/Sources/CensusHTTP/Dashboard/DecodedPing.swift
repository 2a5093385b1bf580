import CensusStore
import MeterWire

/// A ping's parameters as the dashboard shows them: read by the contract's grammar
/// (``PingQuery/parameters(_:)``) here, never by the page, each value without its field's prefix
/// and with what the field means (``DashboardPingFields``).
struct DecodedParameter: Encodable, Sendable, Equatable {
    let name: String
    let value: String
    let meaning: String

    /// The most parameters shown of one ping: a ping has some 45; a stored query is held to
    /// ``PingValidator/maxURLBytes``, so this bounds only what a malicious one could list.
    static let maxShown = 200

    /// The contract's fields by name.
    private static let fields = Dictionary(PingField.allCases.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })

    /// `query`'s parameters, at most ``maxShown``; one line saying why when it cannot be read.
    static func parameters(of query: String) -> [DecodedParameter] {
        switch PingQuery.parameters(Substring(query)) {
        case .failure(let problem):
            return [DecodedParameter(name: "", value: String(query.prefix(PingValidator.maxURLBytes)),
                                     meaning: "the query cannot be read: \(problem.reason)")]
        case .success(let pairs):
            return pairs.prefix(maxShown).map { pair in
                guard let field = fields[pair.name] else {
                    return DecodedParameter(name: pair.name, value: pair.value, meaning: "not a parameter of the contract")
                }
                let value = !field.prefix.isEmpty && pair.value.hasPrefix(field.prefix)
                    ? String(pair.value.dropFirst(field.prefix.count)) : pair.value
                return DecodedParameter(name: pair.name, value: value, meaning: DashboardPingFields.meaning(of: field))
            }
        }
    }

    /// Each ping of a session's trace and of its stored pings, by id: the stored query where the
    /// census stored the ping, else the one the SDK traced.
    static func pings(entries: [CallTraceEntry], stored: [StoredPing]) -> [String: [DecodedParameter]] {
        var queries: [String: String] = [:]
        for entry in entries { for ping in entry.pings { queries[ping.id] = ping.query } }
        for ping in stored { queries[ping.pingID] = ping.rawQuery }
        return queries.mapValues(parameters(of:))
    }
}
