import MeterContract
/// A column of `census_pings` that a ping's insert writes, with how a ping gives its value.
///
/// ``all`` is the one list every insert binds, in its order: SQLite's row by row
/// (``PingStore/row(of:receivedAt:)``), PostgreSQL's column by column (``PingColumnArray``), and
/// the portable one through SQLKit (``PingStore/values(of:receivedAt:)``). A column's name, type
/// and value sit on one line, so that none can be added to one insert and not the others.
package struct PingColumn: Sendable {
    /// A value of a ping's row: the two column types of `census_pings`.
    package enum Value {
        case text(String)
        case integer(Int64)
    }

    /// The column's name.
    package let name: String
    /// Whether it holds text; else a 64-bit integer.
    package let isText: Bool
    private let read: @Sendable (IncomingPing, Int64) -> Value

    /// The column's value for `ping`, received at `receivedAt` (milliseconds since 1970).
    package func value(of ping: IncomingPing, receivedAt: Int64) -> Value {
        read(ping, receivedAt)
    }

    private static func text(_ name: String, _ read: @escaping @Sendable (IncomingPing) -> String) -> PingColumn {
        PingColumn(name: name, isText: true) { ping, _ in .text(read(ping)) }
    }

    private static func integer(_ name: String, _ read: @escaping @Sendable (IncomingPing, Int64) -> Int64) -> PingColumn {
        PingColumn(name: name, isText: false) { ping, receivedAt in .integer(read(ping, receivedAt)) }
    }

    /// The columns, in the order the inserts bind them.
    package static let all: [PingColumn] = [
        .text("ping_id") { $0.key },
        .integer("received_at") { _, receivedAt in receivedAt },
        .text("appid") { $0.appID },
        .text("product") { $0.product },
        .text("ping_type") { $0.pingType },
        .text("credit_kind") { $0.kind.rawValue },
        .text("asset_id") { $0.assetID },
        .integer("credited_seconds") { ping, _ in ping.creditedSeconds },
        .text("session_id") { $0.sessionID },
        .text("device_id") { $0.deviceID },
        .integer("opted_out") { ping, _ in ping.optedOut ? 1 : 0 },
        .integer("created_at") { ping, _ in ping.createdAt },
        .text("raw_query") { $0.rawQuery },
        .text("channel_name") { $0.channelName },
        .text("ott_type") { $0.ottType },
        .integer("over_bound_seconds") { ping, _ in ping.overBoundSeconds },
    ]
}

extension PingStore {
    /// The names of ``PingColumn/all``.
    package static let pingColumns = PingColumn.all.map(\.name)

    /// A ping's row, in ``PingColumn/all``'s order.
    package static func row(of ping: IncomingPing, receivedAt: Int64) -> [PingColumn.Value] {
        PingColumn.all.map { $0.value(of: ping, receivedAt: receivedAt) }
    }

    /// A ping's row, in ``PingColumn/all``'s order, for SQLKit.
    static func values(of ping: IncomingPing, receivedAt: Int64) -> [any Encodable & Sendable] {
        row(of: ping, receivedAt: receivedAt).map { value -> any Encodable & Sendable in
            switch value {
            case .text(let text): text
            case .integer(let number): number
            }
        }
    }
}
