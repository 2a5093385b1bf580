import ArgumentParser
import CensusHTTP
import CensusStore
import MeterTables

/// `meter serve`'s limits on connections (docs/census.md §4c).
struct ConnectionOptions: ParsableArguments {
    @Option(help: "Seconds a request's head may take (a connection's first, from its accept); then 408 and closed (default: 10).")
    var headerTimeout: Double?
    @Option(help: "Seconds a request's body may take after its head; then 408 and closed (default: 30).")
    var bodyTimeout: Double?
    @Option(help: "Seconds a connection may wait for its next request; then closed (default: 60).")
    var idleTimeout: Double?
    @Option(help: "Seconds a connection's answers may wait for its client to read them; then closed (default: 60).")
    var writeTimeout: Double?
    @Option(help: "Connections open at once; beyond it the oldest one owed no answer is closed (default: 3/4 of the open-file limit).")
    var maxConnections: Int?
    @Option(help: "MiB of request bodies held at once across connections; a body past it is answered 503 (default: 64).")
    var bodyBudgetMib: Int?

    /// The limits these options describe, each from its flag or `settings`' other sources; the
    /// connection cap is read from the open-file limit now when none is set.
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, *)
    func limits(_ settings: SettingResolver) throws -> ConnectionLimits {
        let seconds: (Double) -> String? = { (0.01...86_400).contains($0) ? nil : "must be 0.01…86400 seconds" }
        let header = try settings.resolve("header-timeout", flag: headerTimeout, standard: 10, check: seconds).value
        let body = try settings.resolve("body-timeout", flag: bodyTimeout, standard: 30, check: seconds).value
        let idle = try settings.resolve("idle-timeout", flag: idleTimeout, standard: 60, check: seconds).value
        let write = try settings.resolve("write-timeout", flag: writeTimeout, standard: 60, check: seconds).value
        let cap = try settings.resolve("max-connections", flag: maxConnections) { $0 >= 1 ? nil : "must be at least 1" }
        let bodies = try settings.resolve("body-budget-mib", flag: bodyBudgetMib, standard: ConnectionLimits.standardBodyBudget >> 20) {
            (1...65_536).contains($0) ? nil : "must be 1…65536 MiB"
        }.value
        return ConnectionLimits(headerTimeout: .milliseconds(Int64(header * 1000)), bodyTimeout: .milliseconds(Int64(body * 1000)),
                                idleTimeout: .milliseconds(Int64(idle * 1000)), writeTimeout: .milliseconds(Int64(write * 1000)),
                                maxConnections: cap?.value ?? ConnectionLimits.standard().maxConnections,
                                bodyBudget: bodies << 20)
    }
}
