import MeterContract

/// A ping as kept in the durable queue.
package struct PingRecord: Sendable, Equatable {
    /// The ping (parameters without send time).
    package var ping: Ping
    /// True for a ping rebuilt from a credit checkpoint after the process died; sent with
    /// `recovered=1`.
    package var recovered: Bool
    /// A viewability ping's JSON body (``ViewabilityReport``), POSTed to `WireRoute.viewability`
    /// with the ping's parameters in the query; nil for measurement pings.
    package var body: String?
    /// Where a record with a body is POSTed (nil: ``WireRoute/viewability``, as records queued
    /// before call traces existed say nothing).
    package var route: String?

    package init(ping: Ping, recovered: Bool, body: String? = nil, route: String? = nil) {
        self.ping = ping
        self.recovered = recovered
        self.body = body
        self.route = route
    }

    /// The route this record is sent to.
    package var wireRoute: String {
        body == nil ? WireRoute.ping : route ?? WireRoute.viewability
    }

    /// The bytes the record takes in storage (for the byte bound).
    package var approximateSize: Int {
        ping.parameters.reduce(64 + (body?.utf8.count ?? 0)) { $0 + $1.name.utf8.count + $1.value.utf8.count + 8 }
    }
}
