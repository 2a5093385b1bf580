import Foundation

/// Small persistent values the SDK keeps across launches: the user's opt-out choice, the
/// first-party id, the generated vendor id, and the queue of pings not yet delivered (one value
/// per ping). Shared by every instance of an app.
///
/// Called at instance creation and from the engine and delivery queue, never on the hot path.
public protocol MeterStorage: Sendable {
    /// Identifies the place values are kept: two storages with the same identity share values
    /// (and so share one delivery queue per collector).
    var identity: String { get }
    /// The stored value for `key`, or nil.
    func load(_ key: String) -> Data?
    /// Stores `value` for `key` atomically, or removes it when `value` is nil.
    func save(_ key: String, _ value: Data?)
    /// The stored keys that start with `prefix`, sorted.
    func keys(prefix: String) -> [String]
}

/// Values kept in memory only: for tests, and for apps that must not write to disk.
public final class InMemoryStorage: MeterStorage, @unchecked Sendable {
    private let values = Locked([String: Data]())

    /// Creates empty storage.
    public init() {}

    public var identity: String { "memory:\(ObjectIdentifier(self).hashValue)" }
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

    /// Uses `folder`, creating it when needed.
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

    public func load(_ key: String) -> Data? {
        try? Data(contentsOf: file(key))
    }

    public func save(_ key: String, _ value: Data?) {
        let target = file(key)
        guard let value else {
            try? FileManager.default.removeItem(at: target)
            return
        }
        let temporary = target.appendingPathExtension("tmp")
        do {
            try value.write(to: temporary)
            if rename(temporary.path, target.path) != 0 {
                try? FileManager.default.removeItem(at: temporary)
            }
        } catch {
            try? FileManager.default.removeItem(at: temporary)
        }
    }

    public func keys(prefix: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
            .filter { $0.hasPrefix(prefix) && !$0.hasSuffix(".tmp") }
            .sorted()
    }

    private func file(_ key: String) -> URL {
        folder.appendingPathComponent(Self.safeName(key))
    }

    /// Keys are used as file names: keep letters, digits, `-`, `_` and `.`.
    static func safeName(_ key: String) -> String {
        String(key.unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) || "-_.".unicodeScalars.contains($0) })
    }
}
