/// Validates a DCR ping query (docs/protocol.md) and extracts the stored columns.
///
/// The rules are one table, ``PingValidator/rules``, walked by the tests; anything else in the
/// query is kept in the raw query and ignored.
public enum PingValidator {
    /// The longest URL accepted (the SDK never sends more than 2 KB; 8 KB leaves room for others).
    public static let maxURLBytes = 8192
    /// The products the census credits.
    public static let knownProducts: Set<String> = ["dcr"]

    /// One required parameter and its shape.
    struct Rule: Sendable {
        let parameter: String
        /// The `name,` prefix the value must carry (`c27=cln,15`), if any.
        let prefix: String?
        /// Returns a problem with the value (after the prefix), or nil.
        let check: @Sendable (String) -> String?
    }

    static let rules: [Rule] = [
        Rule(parameter: "prd", prefix: nil) { knownProducts.contains($0) ? nil : "is \"\($0)\", not a known product (dcr)" },
        Rule(parameter: "c13", prefix: "asid,") { $0.isEmpty ? "has no appid" : nil },
        Rule(parameter: "pingid", prefix: nil) { $0.isEmpty || $0.count > 128 ? "must be 1 to 128 characters" : nil },
        Rule(parameter: "at", prefix: nil) { ["view", "timer"].contains($0) ? nil : "is \"\($0)\", not view or timer" },
        Rule(parameter: "c27", prefix: "cln,") {
            guard let seconds = Int64($0), seconds >= 0 else { return "is \"\($0)\", not a whole number of seconds" }
            return seconds > 86_400 ? "credits \(seconds) seconds, more than a day in one ping" : nil
        },
        Rule(parameter: "ai", prefix: nil) { $0.isEmpty ? "has no asset id" : nil },
    ]

    /// Validates `query` (the part after `?`) of a request whose full URI is `uriLength` bytes.
    public static func validate(query: Substring, uriLength: Int) -> Result<IncomingPing, PingRejection> {
        guard uriLength <= maxURLBytes else {
            return .failure(PingRejection(reason: "URL is \(uriLength) bytes; the limit is \(maxURLBytes)"))
        }
        let pairs: [(name: String, value: String)]
        switch QueryString.parse(query) {
        case .success(let parsed): pairs = parsed
        case .failure(.badEscape(let name)):
            return .failure(PingRejection(reason: "parameter \(name) has a malformed percent escape"))
        }
        var values: [String: String] = [:]
        for pair in pairs where values[pair.name] == nil { values[pair.name] = pair.value }

        var checked: [String: String] = [:]
        for rule in rules {
            guard let raw = values[rule.parameter] else {
                return .failure(PingRejection(reason: "missing \(rule.parameter)\(rule.prefix.map { "=\($0)…" } ?? "")"))
            }
            var value = Substring(raw)
            if let prefix = rule.prefix {
                guard value.hasPrefix(prefix) else {
                    return .failure(PingRejection(reason: "\(rule.parameter) must start with \"\(prefix)\""))
                }
                value = value.dropFirst(prefix.count)
            }
            if let problem = rule.check(String(value)) {
                return .failure(PingRejection(reason: "\(rule.parameter) \(problem)"))
            }
            checked[rule.parameter] = String(value)
        }

        func field(_ name: String, prefix: String) -> String {
            guard let value = values[name], value.hasPrefix(prefix) else { return "" }
            return String(value.dropFirst(prefix.count))
        }
        let kind: CreditKind = switch (values["rt"], values["c3"]) {
        case ("text", _): .static
        case ("audio", _): .audio
        case (_, "st,a"): .ad
        default: .content
        }
        return .success(IncomingPing(
            pingID: checked["pingid"]!, appID: checked["c13"]!, product: checked["prd"]!,
            pingType: checked["at"]!, kind: kind, assetID: checked["ai"]!,
            creditedSeconds: Int64(checked["c27"]!)!, sessionID: field("c59", prefix: "sesid,"),
            deviceID: field("c9", prefix: "devid,"), optedOut: values["uoo"] == "true" || values["uoo"] == "1",
            createdAt: Int64(field("c61", prefix: "createtm,")) ?? 0, rawQuery: String(query)))
    }
}
