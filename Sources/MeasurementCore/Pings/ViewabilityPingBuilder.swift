import MeterContract

/// Builds a viewability ping: the identifying fields of the measurement ping it goes with (so the
/// census can match the two for a session: product, appid, asset, class, session, creation time,
/// opt-out) in the query, and the series in the body.
enum ViewabilityPingBuilder {
    static let matchingFields: [PingField] = [
        .product, .appID, .assetID, .assetClass, .sessionID, .createdAt, .userOptOut,
    ]

    static func record(_ report: ViewabilityReport, with measurement: Ping, id: String) -> PingRecord {
        var parameters = matchingFields.compactMap { field in
            measurement[field.name].map { PingParameter(field.name, $0) }
        }
        parameters.append(PingParameter(PingField.pingID.name, id))
        let ping = Ping(
            id: id, kind: .duration, assetKind: measurement.assetKind, assetID: measurement.assetID, creditedSeconds: 0,
            createdAt: measurement.createdAt, parameters: parameters)
        return PingRecord(ping: ping, recovered: false, body: report.jsonBody)
    }
}
