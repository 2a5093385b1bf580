import Foundation

/// Where the census keeps its data: a SQLite file (embedded, the default) or a PostgreSQL URL.
package enum DatabaseLocation: Sendable, Equatable, CustomStringConvertible {
    /// A SQLite file.
    case sqlite(path: String)
    /// A PostgreSQL server, `postgres://user:password@host:port/database`.
    case postgres(url: String)

    /// `postgres://…` / `postgresql://…` selects PostgreSQL; anything else is a SQLite file path.
    package init(argument: String) {
        if argument.hasPrefix("postgres://") || argument.hasPrefix("postgresql://") {
            self = .postgres(url: argument)
        } else {
            self = .sqlite(path: argument)
        }
    }

    /// The path or URL, with any password hidden.
    package var description: String {
        switch self {
        case .sqlite(let path): "sqlite:\(path)"
        case .postgres(let url):
            url.replacingOccurrences(of: #"://([^:/@]+):[^@]*@"#, with: "://$1:***@", options: .regularExpression)
        }
    }
}
