import Foundation
package import MeasurementCore

extension OTTStatus {
    /// Reads `updateOTT`'s dictionary. Nil when `ottStatus` is missing or not 0/1 (the call is
    /// ignored); an unknown `ottType` is reported and read as `other`.
    package static func parse(_ values: [String: String]) -> (status: OTTStatus?, issues: [MetadataIssue]) {
        let connected: Bool
        switch values["ottStatus"]?.trimmingCharacters(in: .whitespaces).lowercased() {
        case "1", "true": connected = true
        case "0", "false": connected = false
        case nil, "":
            return (nil, [MetadataIssue(key: "ottStatus", problem: "is missing; expected \"0\" or \"1\"; call ignored", code: .failedParseMetadata)])
        case let other?:
            return (nil, [MetadataIssue(key: "ottStatus", problem: "is \"\(other)\", not \"0\" or \"1\"; call ignored", code: .failedParseMetadata)])
        }
        var issues: [MetadataIssue] = []
        var connection: Connection?
        if connected {
            let raw = values["ottType", default: ""]
            connection = Connection(rawValue: raw.lowercased())
            if connection == nil {
                connection = .other
                let known = Connection.allCases.map(\.rawValue).joined(separator: ", ")
                issues.append(MetadataIssue(
                    key: "ottType", problem: raw.isEmpty ? "is missing; sent as other" : "is \"\(raw)\", not one of \(known); sent as other",
                    code: .failedParseMetadata))
            }
        }
        let status = OTTStatus(
            isConnected: connected, connection: connection, device: values["ottDevice", default: ""],
            deviceModel: values["ottDeviceModel", default: ""], deviceID: values["ottDeviceID", default: ""])
        return (status, issues)
    }
}
