public import Foundation

/// Small persistent values the SDK keeps across launches: the user's opt-out choice, the
/// first-party id, the generated vendor id, credit checkpoints and the queue of pings not yet
/// delivered (one value per ping). Shared by every instance of an app.
///
/// Every method throws ``StorageFailure`` when the platform refuses (a full disk, a missing
/// permission); callers report it with the documented codes (1002 write, 1003 read, 13 the
/// store) and go on in memory. Never called on a caller's thread.
public protocol MeterStorage: Sendable {
    /// Identifies the place values are kept: two storages with the same identity share values
    /// (and so share one delivery queue per collector).
    var identity: String { get }
    /// The stored value for `key`, or nil when there is none.
    func load(_ key: String) throws -> Data?
    /// Stores `value` for `key` atomically, or removes it when `value` is nil.
    func save(_ key: String, _ value: Data?) throws
    /// The stored keys that start with `prefix`, sorted.
    func keys(prefix: String) throws -> [String]
}

/// Why storage refused an operation.
public struct StorageFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// The key or folder concerned.
    public let key: String
    /// What the platform said.
    public let reason: String

    /// Creates a failure.
    public init(key: String, reason: String) {
        self.key = key
        self.reason = reason
    }

    public var description: String { "\(key): \(reason)" }
}

/// Values kept in memory only: for tests, and for apps that must not write to disk.
public final class InMemoryStorage: MeterStorage {
    private let values = Locked([String: Data]())
    /// Unique for the process's life: an address is reused once its storage is freed, and a
    /// storage new to the process must be a new app to the registries keyed by it (a freed
    /// storage's address made the next one lose its app launch).
    public let identity = "memory:" + UUID().uuidString

    /// Creates empty storage.
    public init() {}

    public func load(_ key: String) -> Data? { values.withLock { $0[key] } }
    public func save(_ key: String, _ value: Data?) { values.withLock { $0[key] = value } }
    public func keys(prefix: String) -> [String] {
        values.withLock { $0.keys.filter { $0.hasPrefix(prefix) }.sorted() }
    }

    /// Every key stored (tests check that the noID flavour stores none).
    public var keys: Set<String> { values.withLock { Set($0.keys) } }
}

/// One file per key in a folder. A value is written to `<key>.tmp` and renamed over `<key>`, so a
/// crash never leaves half a value under its name; leftover `.tmp` files are removed on open.
public struct FileStorage: MeterStorage {
    /// The folder.
    public let folder: URL

    /// Uses `folder`, creating it when needed (a folder that cannot be created makes every later
    /// operation throw, which the SDK reports).
    public init(folder: URL) {
        self.folder = folder
        let manager = FileManager.default
        try? manager.createDirectory(at: folder, withIntermediateDirectories: true)
        for name in (try? manager.contentsOfDirectory(atPath: folder.path)) ?? [] where name.hasSuffix(".tmp") {
            try? manager.removeItem(at: folder.appendingPathComponent(name))
        }
    }

    /// The platform's application-support folder, `AppMeter` inside it (a temporary folder when
    /// there is none).
    public static var standard: FileStorage {
        let base = FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first
            ?? FileManager.default.temporaryDirectory
        return FileStorage(folder: base.appendingPathComponent("AppMeter", isDirectory: true))
    }

    public var identity: String { "file:" + folder.standardizedFileURL.path }

    public func load(_ key: String) throws -> Data? {
        let file = file(key)
        guard FileManager.default.fileExists(atPath: file.path) else { return nil }
        do {
            return try Data(contentsOf: file)
        } catch {
            throw StorageFailure(key: key, reason: Self.reason(error))
        }
    }

    public func save(_ key: String, _ value: Data?) throws {
        let target = file(key)
        guard let value else {
            guard FileManager.default.fileExists(atPath: target.path) else { return }
            do {
                try FileManager.default.removeItem(at: target)
            } catch {
                throw StorageFailure(key: key, reason: Self.reason(error))
            }
            return
        }
        let temporary = target.appendingPathExtension("tmp")
        do {
            try value.write(to: temporary)
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw StorageFailure(key: key, reason: Self.reason(error))
        }
        if rename(temporary.path, target.path) != 0 {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(at: temporary)
            throw StorageFailure(key: key, reason: reason)
        }
    }

    public func keys(prefix: String) throws -> [String] {
        do {
            return try FileManager.default.contentsOfDirectory(atPath: folder.path)
                .filter { $0.hasPrefix(prefix) && !$0.hasSuffix(".tmp") }
                .sorted()
        } catch {
            throw StorageFailure(key: folder.path, reason: Self.reason(error))
        }
    }

    private func file(_ key: String) -> URL {
        folder.appendingPathComponent(Self.safeName(key))
    }

    private static func reason(_ error: any Error) -> String {
        (error as NSError).localizedDescription
    }

    /// Keys are used as file names: keep letters, digits, `-`, `_` and `.`.
    static func safeName(_ key: String) -> String {
        // Ping ids (hex, or the app's own ASCII ids) are already safe: no filtering, no copy.
        let safeASCII = key.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."): true
            default: false
            }
        }
        if safeASCII { return key }
        return String(key.unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) || "-_.".unicodeScalars.contains($0) })
    }
}
