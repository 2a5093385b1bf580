import MeterWire
import SQLKit

/// A line of the credit report: one app × kind × asset (census-decisions.md S38). The report's
/// SQL groups by ``columns`` and ``SessionCredit`` keys its pings by it; both read a line with
/// ``init(reading:)``, from a ``StoredPing`` or a row the SQL selected.
struct CreditLine: Hashable, Sendable {
    var appid: String
    var kind: CreditKind
    var assetid: String

    /// The columns a line is grouped and ordered by, in the report's order.
    static let columns: [CreditColumn] = [.appid, .kind, .asset]
}

/// A line of the DTVR report: one app × channel × CID (docs/census.md §5).
struct ChannelLine: Hashable, Sendable {
    var appid: String
    var channel: String
    var cid: String

    /// The columns a line is grouped and ordered by, in the report's order.
    static let columns: [CreditColumn] = [.appid, .channel, .asset]
}

/// The tags walked together: one app × channel × CID × viewing session (decisions.md T6,
/// ``TagCredit``).
struct TagGroup: Hashable, Sendable {
    var appid: String
    var channel: String
    var cid: String
    var session: String

    /// The columns a group is read and ordered by.
    static let columns: [CreditColumn] = [.appid, .channel, .asset, .session]

    /// The credit report's line its tags credit.
    var line: CreditLine { CreditLine(appid: appid, kind: CreditRule.taggedKind, assetid: cid) }

    /// The DTVR report's line its tags credit.
    var channelLine: ChannelLine { ChannelLine(appid: appid, channel: channel, cid: cid) }
}

// In extensions, so that each key keeps its synthesized memberwise initializer.

extension CreditLine {
    /// The line of a ping whose values `text` gives, column by column.
    init(reading text: (CreditColumn) throws -> String) rethrows {
        self.init(appid: try text(.appid), kind: CreditKind(rawValue: try text(.kind)) ?? .content, assetid: try text(.asset))
    }
}

extension ChannelLine {
    /// The line of a ping whose values `text` gives, column by column.
    init(reading text: (CreditColumn) throws -> String) rethrows {
        self.init(appid: try text(.appid), channel: try text(.channel), cid: try text(.asset))
    }
}

extension TagGroup {
    /// The group of a ping whose values `text` gives, column by column.
    init(reading text: (CreditColumn) throws -> String) rethrows {
        self.init(appid: try text(.appid), channel: try text(.channel), cid: try text(.asset), session: try text(.session))
    }
}

extension StoredPing {
    /// Its value in `column`, as the database holds it: what the keys above read.
    func creditText(_ column: CreditColumn) -> String { column.value(of: self) }
}

extension SQLRow {
    /// The row's value in `column`, selected by its name: what the keys above read.
    func creditText(_ column: CreditColumn) throws -> String { try decode(column: column.name, as: String.self) }
}

extension CreditRow {
    /// Its line.
    var line: CreditLine { CreditLine(appid: appid, kind: kind, assetid: assetid) }
}

extension DTVRRow {
    /// Its line.
    var line: ChannelLine { ChannelLine(appid: appid, channel: channel, cid: cid) }
}
