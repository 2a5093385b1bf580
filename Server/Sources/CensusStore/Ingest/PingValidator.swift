package import MeterWire

/// Validates a ping query (docs/census.md §4) and extracts the stored columns, reading the
/// parameters through the shared wire contract (``PingField``, ``PingClassification``).
///
/// The rules are one table, ``PingValidator/rules``, walked by the tests; anything else in the
/// query is kept in the raw query and ignored.
package enum PingValidator {
    /// The longest URL accepted (the SDK never sends more than 2 KB; 8 KB leaves room for others).
    package static let maxURLBytes = WireLimits.censusMaxURLBytes
    /// The products the census credits.
    package static let knownProducts = Set(WireProduct.allCases.map(\.rawValue))

    /// One parameter and its shape.
    struct Rule: Sendable {
        let field: PingField
        /// Whether a ping without it is refused.
        let required: Bool
        /// Returns a problem with the value (after the field's prefix), or nil.
        let check: @Sendable (String) -> String?
    }

    /// `pingid` is AppMeter's and optional: pings of the original SDKs carry none and get a
    /// ``DerivedPingID``. An empty `ai` is stored and reported as it is (the original SDKs send
    /// one for some products), never refused and lost.
    static let rules: [Rule] = [
        Rule(field: .product, required: true) {
            knownProducts.contains($0) ? nil : "is \"\($0)\", not a known product (\(knownProducts.sorted().joined(separator: ", ")))"
        },
        Rule(field: .appID, required: true) {
            $0.isEmpty || $0.utf8.count > ConfigRequestField.maxAppIDLength
                ? "must be an appid of 1 to \(ConfigRequestField.maxAppIDLength) bytes" : nil
        },
        Rule(field: .pingID, required: false) {
            $0.isEmpty || $0.count > WireLimits.censusMaxPingIDCharacters
                ? "must be 1 to \(WireLimits.censusMaxPingIDCharacters) characters" : nil
        },
        Rule(field: .pingType, required: true) { PingKind(wireValue: $0) == nil ? "is \"\($0)\", not view, timer or id3" : nil },
        Rule(field: .creditedSeconds, required: true) {
            guard let seconds = Int64($0), seconds >= 0 else { return "is \"\($0)\", not a whole number of seconds" }
            return seconds > WireLimits.maxCreditedSecondsPerPing ? "credits \(seconds) seconds, more than a day in one ping" : nil
        },
        Rule(field: .assetID, required: false) { _ in nil },
        // Bounded so that spans of creation times cannot overflow in a report (docs/census.md §4b).
        Rule(field: .createdAt, required: false) {
            guard $0.isEmpty || Int64($0).map(creationTimes.contains) == true else {
                return "is \"\($0)\", not Unix seconds between 1970 and 2100"
            }
            return nil
        },
    ]

    /// What kind of refusal a value its rule refused is: seconds in the right form but over the
    /// day one ping may credit are ``RefusalCategory/overADay``; everything else is malformed.
    static func category(of field: PingField, _ value: String) -> RefusalCategory {
        guard field == .creditedSeconds, let seconds = Int64(value), seconds > WireLimits.maxCreditedSecondsPerPing else {
            return .malformed
        }
        return .overADay
    }

    /// The creation times (`c61`) a ping may carry.
    static let creationTimes = WireLimits.creationTimes

    /// Reads `query` (the part after `?`) of a request whose full URI is `uriLength` bytes: the URL
    /// length and every percent escape are checked; fields are decoded on demand.
    package static func read(query: Substring, uriLength: Int) -> Result<PingQuery, PingRejection> {
        guard uriLength <= maxURLBytes else {
            return .failure(PingRejection(reason: "URL is \(uriLength) bytes; the limit is \(maxURLBytes)", category: .tooLarge))
        }
        return PingQuery.parse(query).mapError { PingRejection(reason: $0.reason) }
    }

    /// Validates `query` (the part after `?`) of a request whose full URI is `uriLength` bytes.
    package static func validate(query: Substring, uriLength: Int) -> Result<IncomingPing, PingRejection> {
        read(query: query, uriLength: uriLength).flatMap { validate($0, rawQuery: query) }
    }

    /// Validates a ping read by ``read(query:uriLength:)``, checking ``rules`` and extracting the
    /// stored columns; `rawQuery` is stored as received.
    package static func validate(_ query: PingQuery, rawQuery: Substring) -> Result<IncomingPing, PingRejection> {
        // One slot per rule, in the rules' order (a dictionary here cost a hash table per ping).
        var checked = [String?](repeating: nil, count: rules.count)
        for (index, rule) in rules.enumerated() {
            let field = rule.field
            guard let value = query.unprefixedValue(field) else {
                guard query.contains(field) else {
                    guard !rule.required else {
                        return .failure(PingRejection(reason: "missing \(field.name)\(field.prefix.isEmpty ? "" : "=\(field.prefix)…")"))
                    }
                    continue
                }
                guard query.value(field) != nil else {
                    return .failure(PingRejection(reason: "parameter \(field.name) has a malformed percent escape"))
                }
                return .failure(PingRejection(reason: "\(field.name) must start with \"\(field.prefix)\""))
            }
            if let problem = rule.check(value) {
                return .failure(PingRejection(reason: "\(field.name) \(problem)", category: Self.category(of: field, value)))
            }
            checked[index] = value
        }
        func checkedValue(_ field: PingField) -> String? { rules.firstIndex { $0.field == field }.flatMap { checked[$0] } }

        func field(_ field: PingField) -> String { query.unprefixedValue(field) ?? "" }
        func nonEmpty(_ value: String) -> String? { value.isEmpty ? nil : value }
        let optOut = query.value(.userOptOut)
        let product = checkedValue(.product)!
        // A tag ping is DTVR's: read as DCR it would be a ping the DTVR credit never sees.
        if checkedValue(.pingType) == PingKind.tag.wireValue, product != WireProduct.dtvr.rawValue {
            return .failure(PingRejection(reason: "at is id3, a DTVR tag ping, but prd is \"\(product)\", not dtvr"))
        }
        var ping = IncomingPing(
            pingID: checkedValue(.pingID) ?? DerivedPingID.derive(from: rawQuery), appID: checkedValue(.appID)!, product: product,
            pingType: checkedValue(.pingType)!,
            kind: PingClassification.classify(product: product, mediaType: query.value(.mediaType),
                                              assetClass: query.value(.assetClass)),
            assetID: checkedValue(.assetID) ?? "", creditedSeconds: Int64(checkedValue(.creditedSeconds)!)!,
            // The original Browser SDK sends no device id and an empty c59: a browser is its
            // `nuid` cookie id, its session `sessionId` (census-decisions.md S34).
            sessionID: nonEmpty(field(.sessionID)) ?? field(.browserSessionID),
            deviceID: nonEmpty(field(.deviceID)) ?? field(.nuid), optedOut: optOut == "true" || optOut == "1",
            createdAt: Int64(field(.createdAt)) ?? 0, rawQuery: String(rawQuery))
        ping.channelName = field(.assetName)
        ping.bounds.length = Int64(field(.length)).flatMap { $0 > 0 ? $0 : nil }
        ping.bounds.isLive = query.unprefixedValue(.isLive) == "true"
        ping.bounds.startedAt = Int64(field(.segmentStart))
        ping.bounds.fromAppMeter = checkedValue(.pingID) != nil
        if query.unprefixedValue(.ottFlag) == "1" { ping.ottType = query.unprefixedValue(.ottType).flatMap { $0.isEmpty ? nil : $0 } ?? "other" }
        return .success(ping)
    }
}
