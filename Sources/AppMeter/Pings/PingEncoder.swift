import Foundation

/// Turns a ``Ping`` into the URL sent to the collector:
/// `<base>/cgi-bin/gn?<parameters>[&recovered=1]&c62=sendTime,<s>&rnd=<ms>`.
///
/// Values are percent-encoded (only RFC 3986 unreserved characters and `,` stay literal). A URL
/// never exceeds ``maxURLLength``: when it would, free-text values are shortened in the order of
/// ``truncationOrder`` until it fits.
public enum PingEncoder {
    /// The documented 2K URL limit.
    public static let maxURLLength = 2048
    /// Which values give way first when a URL is too long: title, program, segments, cross ids,
    /// app name, app version, channel name.
    public static let truncationOrder = ["tl", "cg", "c34", "c33", "c37", "c36", "c15", "c12", "asn"]

    private static let allowed: CharacterSet = {
        var set = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
        set.insert(charactersIn: "-._~,")
        return set
    }()

    /// Percent-encodes one value.
    public static func encode(_ value: String) -> String {
        value.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    }

    /// The full ping URL for sending at `sendTime` (seconds since 1970).
    public static func url(for ping: Ping, base: URL, sendTime: Double, recovered: Bool = false) -> String {
        var parameters = ping.parameters
        if recovered { parameters.append(PingParameter("recovered", "1")) }
        parameters.append(PingParameter("c62", "sendTime,\(Int64(sendTime))"))
        parameters.append(PingParameter("rnd", String(Int64(sendTime * 1000))))
        let prefix = base.absoluteString.trimmingSuffix("/") + "/cgi-bin/gn?"
        var encoded = parameters.map { encode($0.value) }
        var length = prefix.utf8.count + zip(parameters, encoded).reduce(0) { $0 + $1.0.name.utf8.count + 1 + $1.1.utf8.count }
            + parameters.count - 1
        for name in truncationOrder where length > maxURLLength {
            guard let index = parameters.firstIndex(where: { $0.name == name }) else { continue }
            let excess = length - maxURLLength
            let shortened = shorten(parameters[index].value, byEncodedLength: excess)
            length -= encoded[index].utf8.count - shortened.utf8.count
            encoded[index] = shortened
        }
        return prefix + zip(parameters, encoded).map { "\($0.name)=\($1)" }.joined(separator: "&")
    }

    /// Drops characters from the end of `value` until its encoding is at least `excess` bytes
    /// shorter (or empty); never splits a percent escape or a `name,` prefix's meaning.
    private static func shorten(_ value: String, byEncodedLength excess: Int) -> String {
        var characters = Array(value)
        let original = encode(value).utf8.count
        var current = original
        while !characters.isEmpty && original - current < excess {
            let removed = characters.removeLast()
            current -= encode(String(removed)).utf8.count
        }
        return encode(String(characters))
    }
}

extension String {
    func trimmingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
    }
}
