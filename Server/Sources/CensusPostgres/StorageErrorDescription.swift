import CensusStore
import PostgresNIO

/// What a log line says of a failure of the PostgreSQL engine (``PostgresCensusDatabase/describe(_:)``).
///
/// postgres-nio describes its errors generically on purpose, so that queries and values stay out
/// of logs; that left "ping not stored" with no cause (a deadlock took a CI run to find). This
/// keeps the generic rule but adds PostgreSQL's SQLSTATE and message, quoted and escaped: a
/// message may echo a value, and every value came from a ping.
func storageErrorDescription(_ error: any Error) -> String {
    guard let error = error as? PSQLError else { return "\(error)" }
    guard let info = error.serverInfo else { return "PostgreSQL client error \(error.code)" }
    let message = info[.message].map { String(reflecting: $0) } ?? "no message"
    return "PostgreSQL \(info[.sqlState] ?? "?"): \(message)"
}
