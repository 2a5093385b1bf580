/// Census set-up failures.
public enum CensusError: Error, CustomStringConvertible {
    /// The `--database` URL could not be read.
    case badDatabaseURL(String)
    /// The database did not answer: where, how often it was tried, and the last reason.
    case databaseUnreachable(DatabaseLocation, attempts: Int, reason: String)

    public var description: String {
        switch self {
        case .badDatabaseURL(let url):
            "cannot read database URL \(DatabaseLocation(argument: url)); expected postgres://user:password@host:port/database"
        case .databaseUnreachable(let location, let attempts, let reason):
            "the database \(location) did not answer (\(attempts) attempts): \(reason)"
        }
    }
}
