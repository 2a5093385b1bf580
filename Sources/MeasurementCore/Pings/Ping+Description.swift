import MeterContract

extension Ping {
    /// The same ping (same id, same credit) with every descriptive field
    /// (``WireLimits/descriptiveFields``) reduced to its `name,` prefix, or nil when there is
    /// nothing to empty. Sent once when the census refuses a ping: whatever it objected to, if it
    /// was not the credit, is then gone (docs/protocol.md §2 "Refused pings").
    package func withoutDescription() -> Ping? {
        var emptied = false
        let parameters = self.parameters.map { parameter -> PingParameter in
            guard let field = PingField(rawValue: parameter.name), Self.descriptiveFields.contains(field),
                  parameter.value != field.prefix
            else { return parameter }
            emptied = true
            return PingParameter(parameter.name, field.prefix)
        }
        guard emptied else { return nil }
        return Ping(id: id, kind: kind, assetKind: assetKind, assetID: assetID, creditedSeconds: creditedSeconds,
                    createdAt: createdAt, parameters: parameters)
    }

    private static let descriptiveFields = Set(WireLimits.descriptiveFields)
}
