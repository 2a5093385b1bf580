#if canImport(Glibc)
import CensusStore
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A read-only descriptor of the embedded census's database file, used only to flush what
/// background checkpoints wrote into it.
///
/// SQLite syncs the database file only at the end of a checkpoint that copied the whole log (the
/// one that lets the log start again); a checkpoint that copies part of it leaves its pages to
/// the operating system, as the log still holds them. Every page the background copied since
/// the last whole copy was therefore flushed by the writer's own copy, while every request
/// waited (docs/performance.md). Flushing after each background copy leaves the writer only the
/// pages it copied itself. An extra flush never weakens what SQLite guarantees.
final class DatabaseFileFlusher: Sendable {
    private let descriptor: Int32

    /// Opens `path` for reading; `nil` if it cannot be opened (the writer then flushes, as before).
    init?(path: String) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        self.descriptor = descriptor
    }

    /// Writes the file's dirty pages to the disk; blocks until done. Returns `errno` on failure.
    func flush() -> Int32? {
        #if canImport(Darwin)
        let result = fsync(descriptor)
        #else
        // The data and the size, not the modification time: what a later read needs.
        let result = fdatasync(descriptor)
        #endif
        return result == 0 ? nil : errno
    }

    deinit {
        close(descriptor)
    }
}
