package import MeterContract

/// Turns a ``Ping`` into the URL sent to the collector:
/// `<base>/cgi-bin/gn?<parameters>[&recovered=1]&c62=sendTime,<s>&rnd=<ms>`.
///
/// Values are percent-encoded (``WireEncoding``). A URL never exceeds ``maxURLLength``: when it
/// would, the descriptive values are shortened in the order of ``truncationOrder`` until it fits.
public enum PingEncoder {
    /// The documented 2K URL limit.
    package static let maxURLLength = WireLimits.sdkMaxURLBytes
    /// Which values give way first when a URL is too long: title, program, segments, cross ids,
    /// and on to the channel name and the DTVR tag; never what the census credits.
    package static let truncationOrder = WireLimits.descriptiveFields

    /// Percent-encodes one value.
    package static func encode(_ value: String) -> String {
        WireEncoding.encode(value)
    }

    /// The query (without `?`) for sending at `sendTime`.
    public static func query(for ping: Ping, sendTime: MeterInstant, recovered: Bool = false, prefixLength: Int = 0) -> String {
        // Almost every ping fits: encode it into one buffer, and shorten only one that does not.
        // The send-time fields follow the stored ones in the buffer, not in an array of their own
        // (a duration ping a minute; decisions.md D8).
        var bytes: [UInt8] = []
        bytes.reserveCapacity(maxURLLength)
        appendQuery(of: ping, to: &bytes)
        let storedEnd = bytes.count
        if recovered { appendParameter(PingField.recovered.name, "1", to: &bytes) }
        appendParameter(PingField.sendTime.name, PingField.sendTime.wireValue(String(sendTime.unixSeconds)), to: &bytes)
        appendParameter(PingField.cacheBuster.name, String(Int64(sendTime.secondsSince1970 * 1000)), to: &bytes)
        guard prefixLength + bytes.count > maxURLLength else { return String(decoding: bytes, as: UTF8.self) }
        // The send-time fields are digits and flags, never shortened: kept as encoded, `&` and all.
        let sendTimeFields = String(decoding: bytes[storedEnd...], as: UTF8.self)
        return shortenedQuery(ping.parameters, prefixLength: prefixLength + sendTimeFields.utf8.count) + sendTimeFields
    }

    /// The ping's stored parameters as a query, values percent-encoded: what the browser SDK keeps
    /// for a ping and sends later with ``query(for:sendTime:recovered:prefixLength:)``'s fields.
    package static func storedQuery(_ ping: Ping) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(maxURLLength)
        appendQuery(of: ping, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `ping`'s parameters, values percent-encoded, to a query being built.
    private static func appendQuery(of ping: Ping, to bytes: inout [UInt8]) {
        for parameter in ping.parameters { appendParameter(parameter.name, parameter.value, to: &bytes) }
    }

    /// Appends `name=value`, the value percent-encoded, after a `&` unless it is the first.
    private static func appendParameter(_ name: String, _ value: String, to bytes: inout [UInt8]) {
        if !bytes.isEmpty { bytes.append(UInt8(ascii: "&")) }
        bytes.append(contentsOf: name.utf8)
        bytes.append(UInt8(ascii: "="))
        WireEncoding.append(value, to: &bytes)
    }

    /// The query of `parameters` with descriptive values shortened until the URL fits. What is left
    /// when they are all empty is sent as it is: the crediting fields alone fit unless the base URL
    /// itself is hundreds of bytes long (docs/protocol.md §2 "Length").
    private static func shortenedQuery(_ parameters: [PingParameter], prefixLength: Int) -> String {
        var encoded = parameters.map { encode($0.value) }
        var length = prefixLength + zip(parameters, encoded).reduce(0) { $0 + $1.0.name.utf8.count + 1 + $1.1.utf8.count }
            + parameters.count - 1
        for field in truncationOrder where length > maxURLLength {
            guard let index = parameters.firstIndex(where: { $0.name == field.name }) else { continue }
            let shortened = shorten(parameters[index].value, keeping: field.prefix, byEncodedLength: length - maxURLLength)
            length -= encoded[index].utf8.count - shortened.utf8.count
            encoded[index] = shortened
        }
        return zip(parameters, encoded).map { "\($0.name)=\($1)" }.joined(separator: "&")
    }

    /// The full ping URL for sending at `sendTime`.
    package static func url(
        for ping: Ping, base: String, sendTime: MeterInstant, recovered: Bool = false, route: String = WireRoute.ping
    ) -> String {
        let prefix = WireRoute.url(route, base: base) + "?"
        return prefix + query(for: ping, sendTime: sendTime, recovered: recovered, prefixLength: prefix.utf8.count)
    }

    /// The encoding of `value` with characters dropped from its end until it is at least `excess`
    /// bytes shorter, or down to `prefix` (the field's `name,`, which the census reads the value
    /// after); never splits a character or a percent escape.
    private static func shorten(_ value: String, keeping prefix: String, byEncodedLength excess: Int) -> String {
        let fixed = value.hasPrefix(prefix) ? prefix : ""
        var characters = Array(value.dropFirst(fixed.count))
        let original = encode(value).utf8.count
        var current = original
        while !characters.isEmpty && original - current < excess {
            let removed = characters.removeLast()
            current -= encode(String(removed)).utf8.count
        }
        return encode(fixed + String(characters))
    }
}
