package import Foundation
import MeterWire

extension PingEncoder {
    /// The full ping URL for sending at `sendTime` to the collector at `base`.
    package static func url(
        for ping: Ping, base: URL, sendTime: MeterInstant, recovered: Bool = false, route: String = WireRoute.ping
    ) -> String {
        url(for: ping, base: base.absoluteString, sendTime: sendTime, recovered: recovered, route: route)
    }
}
