import MeterContract
package import SQLKit

/// How an engine gathers an audience's pings into batches (census-decisions.md S55): a million
/// pings read one row each cost the census several times the database's scan, so the database
/// hands them over a device's day at a time.
package enum PingTimesAggregate: Sendable {
    /// Two arrays of BIGINT, creations and seconds, built side by side (`array_agg`, PostgreSQL).
    case arrays
    /// One text of `created:seconds` pairs separated by commas (`group_concat`, SQLite).
    case text
}

/// An audience's pings of one device, day and claim group (``ReportStore/audience(_:)``): their
/// creation times and credited seconds, and, for DTVR pings other than tags, the ``TagGroup``
/// whose tags may replace their claim (decisions.md T6).
struct AudienceBatch {
    var device: String
    var createdAt: [Int64]
    var seconds: [Int64]
    /// The session group of claims a tagged session's tags may replace; nil for other pings.
    var claim: TagGroup?

    /// The claim's columns: a DTVR ping other than a tag has its group's, any other ping NULLs,
    /// so that a batch holds claims of one group or no claims.
    private static let claimColumns: [(CreditColumn, String)] = [
        (.appid, "claim_appid"), (.channel, "claim_channel"), (.asset, "claim_asset"), (.session, "claim_session"),
    ]

    /// The batches of the pings `pings` selects (its `FROM` and `WHERE`), ordered by device: one
    /// row per device, day of creation (UTC) and claim group, its pings gathered as `aggregate` says.
    static func select(_ db: CensusSQL, _ pings: SQLSelectBuilder, aggregate: PingTimesAggregate) -> SQLSelectBuilder {
        var inner = pings.column("device_id").column("created_at").column(CreditRule.secondsColumn)
        for (column, name) in claimColumns {
            inner = inner.column(SQLAlias(SQLRaw("CASE WHEN \(CreditRule.isClaimSQL) THEN \(column.name) END"), as: SQLIdentifier(name)))
        }
        var outer = db.select().column("device_id")
        switch aggregate {
        case .arrays:
            // Both aggregates advance together over the group's rows, so the arrays pair up.
            outer = outer.column(SQLRaw("array_agg(created_at)"), as: "created")
                .column(SQLRaw("array_agg(\(CreditRule.secondsColumn))"), as: "seconds")
        case .text:
            outer = outer.column(SQLRaw("group_concat(created_at || ':' || \(CreditRule.secondsColumn), ',')"), as: "pings")
        }
        for (_, name) in claimColumns { outer = outer.column(name) }
        outer = outer.from(SQLAlias(SQLGroupExpression(inner.select), as: SQLIdentifier("audience_pings")))
            .groupBy("device_id").groupBy(SQLRaw("created_at / 86400"))
        for (_, name) in claimColumns { outer = outer.groupBy(name) }
        return outer.orderBy("device_id")
    }

    /// A row of ``select(_:_:aggregate:)``.
    init(reading row: any SQLRow, aggregate: PingTimesAggregate) throws {
        device = try row.decode(column: "device_id", as: String.self)
        switch aggregate {
        case .arrays:
            createdAt = try row.decode(column: "created", as: [Int64].self)
            seconds = try row.decode(column: "seconds", as: [Int64].self)
        case .text:
            (createdAt, seconds) = try Self.pairs(try row.decode(column: "pings", as: String.self))
        }
        guard createdAt.count == seconds.count else { throw AudienceBatchError(reason: "creations and seconds do not pair up") }
        let values = try Self.claimColumns.map { try row.decode(column: $0.1, as: String?.self) }
        if let appid = values[0], let channel = values[1], let cid = values[2], let session = values[3] {
            claim = TagGroup(appid: appid, channel: channel, cid: cid, session: session)
        }
    }

    /// `created:seconds` pairs separated by commas, each a decimal integer.
    static func pairs(_ text: String) throws -> ([Int64], [Int64]) {
        var created: [Int64] = [], seconds: [Int64] = []
        var number: Int64 = 0, negative = false, digits = 0
        func end(_ into: inout [Int64]) throws {
            guard digits > 0 else { throw AudienceBatchError(reason: "an empty number in \(text.prefix(40))") }
            into.append(negative ? -number : number)
            number = 0; negative = false; digits = 0
        }
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                let (times10, overflow1) = number.multipliedReportingOverflow(by: 10)
                let (sum, overflow2) = times10.addingReportingOverflow(Int64(byte - UInt8(ascii: "0")))
                guard !overflow1, !overflow2 else { throw AudienceBatchError(reason: "a number over 64 bits") }
                number = sum; digits += 1
            case UInt8(ascii: "-") where digits == 0 && !negative: negative = true
            case UInt8(ascii: ":"): try end(&created)
            case UInt8(ascii: ","): try end(&seconds)
            default: throw AudienceBatchError(reason: "an unexpected character in \(text.prefix(40))")
            }
        }
        try end(&seconds)
        guard created.count == seconds.count else { throw AudienceBatchError(reason: "a creation without its seconds") }
        return (created, seconds)
    }
}

/// An audience's batch the census could not read: no audience rather than a wrong one.
struct AudienceBatchError: Error, CustomStringConvertible {
    let reason: String
    var description: String { "an audience's batch of pings could not be read: \(reason)" }
}
