/// What went wrong in the census, by case: the set-up's failures, and the storage's, which every
/// route answers as ``CensusError`` `+HTTP` maps them (the one place).
///
/// The store throws nothing else: an engine's own failure becomes ``storageUnavailable(reason:)``
/// with the engine's account of it (``CensusDatabase/withSQL(_:)``).
package enum CensusError: Error, CustomStringConvertible {
    /// The `--database` URL could not be read.
    case badDatabaseURL(String)
    /// The database did not answer: where, how often it was tried, and the last reason.
    case databaseUnreachable(DatabaseLocation, attempts: Int, reason: String)
    /// A read or write of the store failed, for the reason given; nothing of a write was stored.
    case storageUnavailable(reason: String)
    /// The store gave no answer within `timeout`.
    case noAnswer(within: Duration)
    /// A write's commit was sent and its answer never came (the connection was lost, for the
    /// reason given): it may be committed or not (census-decisions.md S48).
    case commitUnconfirmed(reason: String)
    /// The readiness check's query failed, for the reason given.
    case notReady(reason: String)
    /// An app's settings could not be read for the config handshake.
    case configUnavailable
    /// The census's signing key in `census_signing_key` is not base64 of 32 bytes.
    case signingKeyUnreadable
    /// Call traces have used their budget (``StorageBudget``) until the next prune.
    case traceStorageFull
    /// As many dashboards watch the live feed as it serves.
    case tooManyWatchers
    /// `--tls-cert` or `--tls-key` cannot be used: which, and why.
    case tlsUnusable(String)
    /// The database was migrated by a newer census (schema `found`; this one knows up to `known`).
    case schemaNewer(found: Int, known: Int)
    /// This `meter` was built without `feature`, its package trait `trait` disabled (Package.swift's
    /// traits; the README's quick first run builds without them).
    case notBuiltIn(feature: String, trait: String)

    /// Whether a write that failed so may still be stored: sent, and its answer never came
    /// (census-decisions.md S47, S48). Its retry is then answered `duplicate`.
    package var mayHaveStored: Bool {
        switch self {
        case .noAnswer, .commitUnconfirmed: true
        default: false
        }
    }

    /// What a log line or the command line says.
    package var description: String {
        switch self {
        case .badDatabaseURL(let url):
            "cannot read database URL \(DatabaseLocation(argument: url)); expected postgres://user:password@host:port/database"
        case .databaseUnreachable(let location, let attempts, let reason):
            "the database \(location) did not answer (\(attempts) attempts): \(reason)"
        case .storageUnavailable(let reason): reason
        case .noAnswer(let timeout): "no answer within \(timeout)"
        case .commitUnconfirmed(let reason): "the commit was sent and not confirmed: \(reason)"
        case .notReady(let reason): "the database does not answer (\(reason))"
        case .configUnavailable: "the app's settings could not be read"
        case .signingKeyUnreadable: "the census's signing key in census_signing_key is not base64 of 32 bytes"
        case .traceStorageFull: "call traces have used their storage budget until the next prune"
        case .tooManyWatchers: "too many dashboards are watching"
        case .tlsUnusable(let reason): reason
        case .schemaNewer(let found, let known):
            "the database's schema is version \(found), newer than this census's \(known): run the newer meter, or restore the backup taken before the upgrade (docs/census.md, \"Backup, restore and upgrade\")"
        case .notBuiltIn(let feature, let trait):
            "this meter was built without \(feature) (the Server package's trait \(trait), on by default but disabled for the quick first run): build it with `swift build --package-path Server`, which includes it"
        }
    }
}
