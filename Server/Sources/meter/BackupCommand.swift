import ArgumentParser
import CensusHTTP
import CensusSQLite
import CensusStore
import MeterTables
import Foundation
import Logging

struct BackupCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Copy a SQLite census to a new file, consistently, while it may be serving.",
        discussion: """
            The backup is the database as it was at one moment (SQLite's VACUUM INTO): what the \
            census commits meanwhile goes into the next backup, never half into this one. The census \
            can go on serving, and the database is only read. The backup appears at --to only once \
            it is whole and on the disk; a backup that is cut short leaves a file named \
            .<name>.<id>.incomplete beside it, to delete.

            To restore: stop the census, remove the database's -wal and -shm files, copy the backup \
            in place of the database, start the census. A PostgreSQL census is backed up with \
            pg_dump -Fc instead. docs/census.md, "Backup, restore and upgrade".

            Exit codes: 0 written; 64 a postgres:// URL; 65 --database is not a census; 66 no file \
            at --database; 69 the database cannot be read; 73 --to exists, or cannot be written.
            """)

    @Option(help: "The census's SQLite file, as `meter serve --database` names it.")
    var database = "./census.sqlite"
    @Option(help: ArgumentHelp("The backup file to write. It must not exist: a backup never replaces a file.",
                               valueName: "file"))
    var to: String

    func validate() throws {
        if case .postgres = DatabaseLocation(argument: database) {
            throw ValidationError("meter backup copies a SQLite census; back up PostgreSQL with pg_dump -Fc (docs/census.md, \"Backup, restore and upgrade\")")
        }
    }

    func run() async throws {
        guard FileManager.default.fileExists(atPath: database) else {
            throw MeterFailure(.noInput, "no census database at \(database) (`meter serve` and `meter demo --database` create one; --database names another)")
        }
        let size: Int
        do {
            size = try await SQLiteBackup.write(database: database, to: to, logger: Logger(label: "Census"))
        } catch let failure as SQLiteBackup.Failure {
            switch failure {
            case .exists, .cannotWrite: throw MeterFailure(.cannotCreate, failure.description)
            case .notACensus: throw MeterFailure(.data, failure.description)
            case .unreadable: throw MeterFailure(.unavailable, failure.description)
            }
        }
        print("backed up \(TerminalText.escaped(database)) to \(TerminalText.escaped(to)) (\(ByteCountFormatter.string(fromByteCount: Int64(size), countStyle: .file)))")
    }
}
