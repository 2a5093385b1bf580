import ArgumentParser
import Census

/// `meter serve`'s limits on connections (docs/census.md §4c).
struct ConnectionOptions: ParsableArguments {
    @Option(help: "Seconds a request's head may take (a connection's first, from its accept); then 408 and closed.")
    var headerTimeout: Double = 10
    @Option(help: "Seconds a request's body may take after its head; then 408 and closed.")
    var bodyTimeout: Double = 30
    @Option(help: "Seconds a connection may wait for its next request; then closed.")
    var idleTimeout: Double = 60
    @Option(help: "Connections open at once; beyond it the oldest one owed no answer is closed (default: 3/4 of the open-file limit).")
    var maxConnections: Int?

    func validate() throws {
        for (name, value) in [("--header-timeout", headerTimeout), ("--body-timeout", bodyTimeout), ("--idle-timeout", idleTimeout)]
        where !(0.01...86_400).contains(value) {
            throw ValidationError("\(name) must be 0.01…86400 seconds")
        }
        if let maxConnections, maxConnections < 1 { throw ValidationError("--max-connections must be at least 1") }
    }

    /// The limits these options describe; the connection cap is read from the open-file limit now.
    var limits: ConnectionLimits {
        ConnectionLimits(headerTimeout: .milliseconds(Int64(headerTimeout * 1000)), bodyTimeout: .milliseconds(Int64(bodyTimeout * 1000)),
                         idleTimeout: .milliseconds(Int64(idleTimeout * 1000)),
                         maxConnections: maxConnections ?? ConnectionLimits.standard().maxConnections)
    }
}
