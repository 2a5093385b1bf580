import ArgumentParser
import Foundation

/// Checks of `--host` and `--port`, and the address a browser can open.
enum ListenAddress {
    /// Refuses a port outside 0…65535 and an empty or blank host; a name is resolved when binding.
    static func validate(host: String, port: Int) throws {
        guard (0...65_535).contains(port) else { throw ValidationError("--port \(port) is not a port: 1…65535, or 0 for any free one") }
        guard !host.trimmingCharacters(in: .whitespaces).isEmpty, !host.contains(where: \.isWhitespace) else {
            throw ValidationError("--host must be an address or a name, without spaces")
        }
    }

    /// The URL to open in a browser on this machine: a wildcard address (`0.0.0.0`, `::`) is not
    /// one a browser can reach, so loopback stands for it; an IPv6 address is bracketed.
    static func browserURL(host: String, port: Int, https: Bool = false) -> String {
        let reachable = ["0.0.0.0", "::", "[::]", ""].contains(host) ? "127.0.0.1" : host
        let shown = reachable.contains(":") && !reachable.hasPrefix("[") ? "[\(reachable)]" : reachable
        return "\(https ? "https" : "http")://\(shown):\(port)/"
    }
}
