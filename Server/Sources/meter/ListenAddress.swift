import ArgumentParser
import Foundation

/// Checks of a host and port, wherever they were set, and the address a browser can open.
enum ListenAddress {
    /// What is wrong with `port`, or nil: 0…65535 (0: any free port).
    static func portProblem(_ port: Int) -> String? {
        (0...65_535).contains(port) ? nil : "is not a port: 1…65535, or 0 for any free one"
    }

    /// What is wrong with `host`, or nil: empty or with spaces; a name is resolved when binding.
    static func hostProblem(_ host: String) -> String? {
        !host.trimmingCharacters(in: .whitespaces).isEmpty && !host.contains(where: \.isWhitespace)
            ? nil : "must be an address or a name, without spaces"
    }

    /// Refuses `--port` and `--host` given as flags (`meter demo`) with the rules above.
    static func validate(host: String, port: Int) throws {
        if let problem = portProblem(port) { throw ValidationError("--port \(port) \(problem)") }
        if let problem = hostProblem(host) { throw ValidationError("--host \(host) \(problem)") }
    }

    /// The URL to open in a browser on this machine: a wildcard address (`0.0.0.0`, `::`) is not
    /// one a browser can reach, so loopback stands for it; an IPv6 address is bracketed.
    static func browserURL(host: String, port: Int, https: Bool = false) -> String {
        let reachable = ["0.0.0.0", "::", "[::]", ""].contains(host) ? "127.0.0.1" : host
        let shown = reachable.contains(":") && !reachable.hasPrefix("[") ? "[\(reachable)]" : reachable
        return "\(https ? "https" : "http")://\(shown):\(port)/"
    }
}
