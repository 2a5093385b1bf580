import Foundation

/// An `<amp-analytics type="…">` tag as AMP's runtime reads it, as far as the `nielsen` vendor's
/// configuration and the guide's page use it (ampproject/amphtml, extensions/amp-analytics/0.1):
///
/// - config.js `mergeConfigs_`: the default configuration, then the vendor's, then the page's
///   inline one, each merged over the last by `mergeObjects` (objects and arrays merged member by
///   member, anything else replaced), with every request written as a string made `{baseUrl: …}`
///   first (`expandConfigRequest`); `vars.requestCount` starts at 0.
/// - variables.js `expandTemplateSync`: `${name}` becomes the var's value, itself expanded (two
///   levels) and then URI-encoded, except the argument list of a macro call (`CLIENT_ID(imrworldwide)`);
///   a var the configuration lacks becomes "".
/// - the URL replacements after it: each platform macro the default configuration names
///   (`TIMESTAMP`, `PAGE_VIEW_ID`…) becomes its value, URI-encoded.
struct AMPAnalyticsTag {
    /// The merged configuration.
    let config: [String: Any]

    /// What the platform gives the page's macros: one page view of one AMP client.
    struct Platform {
        var clientID: String
        var pageViewID: String
        var ampdocURL: String
        var random = "0.5"
    }

    /// default-config.js: the vars that name the platform macros these requests use.
    static let defaultVars: [String: String] = [
        "ampdocUrl": "AMPDOC_URL", "backgroundState": "BACKGROUND_STATE", "clientId": "CLIENT_ID",
        "pageViewId": "PAGE_VIEW_ID", "random": "RANDOM", "timestamp": "TIMESTAMP",
    ]

    init(vendor: Data, page: Data) throws {
        var merged: Any = ["vars": ["requestCount": 0] as [String: Any]] as [String: Any]
        let sources: [[String: Any]] = [["vars": Self.defaultVars as [String: Any]], try Self.object(vendor), try Self.object(page)]
        for source in sources {
            merged = Self.merge(Self.expandingRequests(source), into: merged)
        }
        config = merged as? [String: Any] ?? [:]
    }

    /// One request as sent: `name`'s template expanded at `timestamp` (ms), the page visible or
    /// not, as the page's `count`-th request.
    func request(_ name: String, platform: Platform, timestamp: Int64, hidden: Bool, count: Int) -> String? {
        guard let requests = config["requests"] as? [String: Any], let request = requests[name] as? [String: Any],
              let template = request["baseUrl"] as? String else { return nil }
        var vars = config["vars"] as? [String: Any] ?? [:]
        vars["requestCount"] = count
        let expanded = Self.expandTemplate(template, vars: vars, iterations: 2, encode: true)
        return Self.replaceMacros(expanded, [
            "AMPDOC_URL": platform.ampdocURL, "BACKGROUND_STATE": hidden ? "1" : "0", "CLIENT_ID": platform.clientID,
            "PAGE_VIEW_ID": platform.pageViewID, "RANDOM": platform.random, "TIMESTAMP": String(timestamp),
        ])
    }

    /// The request names a trigger sends, in order.
    func requestNames(ofTriggerOn event: String) -> [String] {
        let triggers = config["triggers"] as? [String: Any] ?? [:]
        return triggers.values.compactMap { $0 as? [String: Any] }.filter { $0["on"] as? String == event }
            .flatMap { trigger -> [String] in
                if let one = trigger["request"] as? String { return [one] }
                return trigger["request"] as? [String] ?? []
            }
    }

    /// The interval of the `timer` trigger, seconds.
    var timerInterval: Int? {
        let triggers = config["triggers"] as? [String: Any] ?? [:]
        let timer = triggers.values.compactMap { $0 as? [String: Any] }.first { $0["on"] as? String == "timer" }
        return Self.integer((timer?["timerSpec"] as? [String: Any])?["interval"])
    }

    // MARK: - AMP's rules

    private static func integer(_ value: Any?) -> Int? {
        (value as? NSNumber)?.intValue ?? value as? Int
    }

    private static func object(_ data: Data) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
    }

    private static func expandingRequests(_ source: [String: Any]) -> [String: Any] {
        guard let requests = source["requests"] as? [String: Any] else { return source }
        var copy = source
        copy["requests"] = requests.mapValues { $0 is String ? ["baseUrl": $0] : $0 }
        return copy
    }

    private static func merge(_ from: Any, into to: Any) -> Any {
        if let from = from as? [String: Any] {
            var to = to as? [String: Any] ?? [:]
            for (key, value) in from { to[key] = merge(value, into: to[key] as Any) }
            return to
        }
        if let from = from as? [Any] {
            var to = to as? [Any] ?? []
            for (index, value) in from.enumerated() {
                if index < to.count { to[index] = merge(value, into: to[index]) } else { to.append(merge(value, into: ())) }
            }
            return to
        }
        return from
    }

    /// `SOME_MACRO(a,b)` → ("SOME_MACRO", "(a,b)"); anything else → (itself, "").
    private static func nameAndArguments(_ key: String) -> (name: String, arguments: String) {
        guard let open = key.firstIndex(of: "("), key.hasSuffix(")"), !key[..<open].contains(where: \.isWhitespace),
              !key[key.index(after: open)..<key.index(before: key.endIndex)].contains(")") else { return (key, "") }
        return (String(key[..<open]), String(key[open...]))
    }

    private static func expandTemplate(_ template: String, vars: [String: Any], iterations: Int, encode: Bool) -> String {
        var result = ""
        var rest = Substring(template)
        while let start = rest.range(of: "${"), let end = rest[start.upperBound...].firstIndex(of: "}") {
            result += rest[..<start.lowerBound]
            let key = String(rest[start.upperBound..<end])
            rest = rest[rest.index(after: end)...]
            guard iterations >= 0 else { result += "${" + key + "}"; continue }
            let (name, arguments) = nameAndArguments(key)
            var value: String
            switch vars[name] {
            case let text as String: value = expandTemplate(text, vars: vars, iterations: iterations - 1, encode: false)
            case let other?: value = integer(other).map(String.init) ?? ""
            case nil: value = ""
            }
            if encode {
                let (valueName, valueArguments) = nameAndArguments(value)
                value = encodeURIComponent(valueName) + valueArguments
            }
            if !value.isEmpty { value += arguments }
            result += value
        }
        return result + rest
    }

    private static func replaceMacros(_ text: String, _ values: [String: String]) -> String {
        var result = text
        // Longest names first, so that no name is replaced inside a longer one.
        for name in values.keys.sorted(by: { $0.count > $1.count }) {
            var from = result.startIndex
            while let range = result.range(of: name, range: from..<result.endIndex) {
                var end = range.upperBound
                if result[end...].hasPrefix("("), let close = result[end...].firstIndex(of: ")") { end = result.index(after: close) }
                let value = encodeURIComponent(values[name] ?? "")
                let offset = result.distance(from: result.startIndex, to: range.lowerBound) + value.count
                result.replaceSubrange(range.lowerBound..<end, with: value)
                from = result.index(result.startIndex, offsetBy: offset)
            }
        }
        return result
    }

    /// JavaScript's `encodeURIComponent`.
    static func encodeURIComponent(_ text: String) -> String {
        var allowed = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
        allowed.insert(charactersIn: "-_.!~*'()")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }
}
