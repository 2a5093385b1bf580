import SQLKit

/// The viewing sessions: a session's pings, found through its spans of creation times
/// (``SessionSpans``), and the sessions list's labels and Google AMP page views. A
/// ``PingStore``'s ``PingStore/sessions``.
package struct SessionStore: Sendable {
    /// The database.
    let database: any CensusDatabase

    /// The pings of one viewing session, in creation order: read from each of the session's
    /// spans (``SessionSpans``, one per app it reported to; only `appid`'s when given) as a range
    /// of the app's index; only the first `first` when given. A span reaches at most from 31 days
    /// before a ping's receipt to an hour past it (``SenderClock``, census-decisions.md S42).
    package func pings(session: String, appid: String? = nil, first: Int? = nil) async throws -> [StoredPing] {
        try await database.withSQL { db in
            var pings: [(ping: StoredPing, receivedAt: Int64)] = []
            for span in try await Self.spans(of: session, appid: appid, db) {
                var select = db.select().columns(StoredPing.columns).from("census_pings").where(span.pings)
                if let first { select = select.orderBy("created_at").limit(first) }
                pings += try await select.all()
                    .map { (try StoredPing(reading: $0), try $0.decode(column: "received_at", as: Int64.self)) }
            }
            let ordered = pings.sorted { ($0.ping.createdAt, $0.receivedAt) < ($1.ping.createdAt, $1.receivedAt) }.map(\.ping)
            return first.map { Array(ordered.prefix($0)) } ?? ordered
        }
    }

    /// Where the pings of `session` lie: per app, the span of creation times that covers them.
    struct SessionSpan {
        var session: String
        var appid: String
        var startsAt: Int64
        var endsAt: Int64

        /// The condition that picks the span's pings: a range of the app's index by creation time.
        var pings: any SQLExpression {
            SQLBinaryExpression(
                SQLBinaryExpression(SQLBinaryExpression(SQLColumn("appid"), .equal, SQLBind(appid)), .and,
                                    SQLBinaryExpression(SQLColumn("session_id"), .equal, SQLBind(session))),
                .and,
                SQLBinaryExpression(SQLBinaryExpression(SQLColumn("created_at"), .greaterThanOrEqual, SQLBind(startsAt)), .and,
                                    SQLBinaryExpression(SQLColumn("created_at"), .lessThanOrEqual, SQLBind(endsAt))))
        }
    }

    /// The spans of `session`, of `appid` only when given (none for the empty session id, whose
    /// pings have none).
    static func spans(of session: String, appid: String? = nil, _ db: any SQLDatabase) async throws -> [SessionSpan] {
        guard !session.isEmpty else { return [] }
        var select = db.select().columns("appid", "starts_at", "ends_at").from("census_sessions").where("session_id", .equal, session)
        if let appid { select = select.where("appid", .equal, appid) }
        return try await select.all()
            .map { row in
                SessionSpan(session: session, appid: try row.decode(column: "appid", as: String.self),
                            startsAt: try row.decode(column: "starts_at", as: Int64.self),
                            endsAt: try row.decode(column: "ends_at", as: Int64.self))
            }
    }
}
