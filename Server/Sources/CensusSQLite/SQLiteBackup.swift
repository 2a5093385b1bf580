import CensusStore
import Foundation
package import Logging
import NIOPosix
import SQLiteNIO
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A consistent copy of an embedded census's database, taken while the census may be serving
/// (`meter backup`; docs/census.md, "Backup, restore and upgrade").
package enum SQLiteBackup {
    /// Why a backup was not written; nothing is left at its path.
    package enum Failure: Error, CustomStringConvertible {
        /// Something is at the backup's path already: a backup never replaces a file.
        case exists(path: String)
        /// The backup could not be written there, for the reason given.
        case cannotWrite(path: String, reason: String)
        /// The file is not a census database: not SQLite at all, or without the census's tables.
        case notACensus(path: String, reason: String)
        /// The database could not be opened or read, for the reason given.
        case unreadable(path: String, reason: String)

        package var description: String {
            switch self {
            case .exists(let path): "\(path) exists: a backup never replaces a file (name a new one)"
            case .cannotWrite(let path, let reason): "cannot write the backup \(path): \(reason)"
            case .notACensus(let path, let reason): "\(path) is not a census database (\(reason))"
            case .unreadable(let path, let reason): "cannot read the census database \(path): \(reason)"
            }
        }
    }

    /// Copies the SQLite census at `path`, which must exist, to `destination`, a new file, and
    /// returns the backup's size in bytes.
    ///
    /// The copy is SQLite's `VACUUM INTO` on a connection of its own: one read transaction, so one
    /// moment of the database, whatever a serving census commits meanwhile (in WAL mode it goes on
    /// writing; its log cannot start again until the copy ends, and grows by what is written in
    /// the meantime). The source is only read. `VACUUM INTO` does not sync what it writes, and a
    /// copy cut short is corrupt: so the copy is written beside `destination` under a temporary
    /// name, flushed to the disk, and only then linked to `destination`, which must not exist.
    /// A file at `destination` is therefore always a whole backup.
    package static func write(database path: String, to destination: String, logger: Logger) async throws -> Int {
        let target = URL(fileURLWithPath: destination)
        let folder = target.deletingLastPathComponent()
        guard !occupied(destination) else { throw Failure.exists(path: destination) }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder), isFolder.boolValue else {
            throw Failure.cannotWrite(path: destination, reason: "there is no folder \(folder.path)")
        }
        guard FileManager.default.fileExists(atPath: path) else {
            throw Failure.unreadable(path: path, reason: "no such file")
        }

        let (connection, thread): (SQLiteConnection, NIOThreadPool)
        do {
            // The census's own settings for a second connection: wait for a writer's lock rather
            // than fail (a WAL reader meets one only while the log is recovered).
            (connection, thread) = try await SQLiteConnection.openOnOwnThread(
                path: path, pragmas: ["PRAGMA busy_timeout=5000"], logger: logger)
        } catch {
            throw Failure.unreadable(path: path, reason: "\(error)")
        }
        let partial = folder.appendingPathComponent(".\(target.lastPathComponent).\(UUID().uuidString).incomplete").path
        do {
            try await checkIsCensus(connection, path: path)
            do {
                _ = try await connection.query("VACUUM INTO ?", [.text(partial)])
            } catch {
                throw Failure.cannotWrite(path: destination, reason: "\(error)")
            }
            try await thread.runIfActive { try publish(partial, as: destination, in: folder.path) }
        } catch {
            unlink(partial)
            try? await connection.close()
            try? await thread.shutdownGracefully()
            throw error
        }
        try? await connection.close()
        try? await thread.shutdownGracefully()
        let attributes = try? FileManager.default.attributesOfItem(atPath: destination)
        return (attributes?[.size] as? NSNumber)?.intValue ?? 0
    }

    /// Throws ``Failure/notACensus(path:reason:)`` unless the database has the census's record of
    /// its migrations (``Schema``).
    private static func checkIsCensus(_ connection: SQLiteConnection, path: String) async throws {
        let rows: [SQLiteRow]
        do {
            rows = try await connection.query(
                "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'census_migrations'")
        } catch let error as SQLiteError where error.reason == .notADatabase {
            throw Failure.notACensus(path: path, reason: "not a SQLite database")
        } catch {
            throw Failure.unreadable(path: path, reason: "\(error)")
        }
        guard !rows.isEmpty else { throw Failure.notACensus(path: path, reason: "no census_migrations table") }
    }

    /// Flushes the copy at `partial` to the disk, links it to `destination` (which fails if
    /// anything is there, unlike a rename), removes the temporary name and flushes the folder.
    private static func publish(_ partial: String, as destination: String, in folder: String) throws {
        let file = open(partial, O_RDONLY | O_CLOEXEC)
        guard file >= 0 else { throw Failure.cannotWrite(path: destination, reason: String(cString: strerror(errno))) }
        let synced = fsync(file) == 0 ? nil : errno
        close(file)
        if let synced { throw Failure.cannotWrite(path: destination, reason: String(cString: strerror(synced))) }
        guard link(partial, destination) == 0 else {
            if errno == EEXIST { throw Failure.exists(path: destination) }
            throw Failure.cannotWrite(path: destination, reason: String(cString: strerror(errno)))
        }
        unlink(partial)
        let directory = open(folder, O_RDONLY | O_CLOEXEC)
        if directory >= 0 {
            _ = fsync(directory)
            close(directory)
        }
    }

    /// Whether anything, a dangling symbolic link included, is at `path`.
    private static func occupied(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0
    }
}
