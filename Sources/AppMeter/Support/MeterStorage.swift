import Foundation

/// Small persistent values the SDK keeps across launches: the user's opt-out choice, the
/// first-party id, the generated vendor id. Shared by every instance of an app.
///
/// Called at instance creation and from the engine, never on the hot path.
public protocol MeterStorage: Sendable {
    /// The stored value for `key`, or nil.
    func load(_ key: String) -> Data?
    /// Stores `value` for `key`, or removes it when `value` is nil.
    func save(_ key: String, _ value: Data?)
}

/// Values kept in memory only: for tests, and for apps that must not write to disk.
public final class InMemoryStorage: MeterStorage, @unchecked Sendable {
    private let values = Locked([String: Data]())

    /// Creates empty storage.
    public init() {}

    public func load(_ key: String) -> Data? { values.withLock { $0[key] } }
    public func save(_ key: String, _ value: Data?) { values.withLock { $0[key] = value } }

    /// Every key stored (tests check that the noID flavour stores none).
    public var keys: Set<String> { values.withLock { Set($0.keys) } }
}

/// One file per key in a folder, written atomically (temporary file, then rename), so a crash
/// never leaves half a value.
public struct FileStorage: MeterStorage {
    /// The folder.
    public let folder: URL

    /// Uses `folder`, creating it when needed.
    public init(folder: URL) {
        self.folder = folder
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    /// The platform's application-support folder, `AppMeter` inside it (a temporary folder when
    /// there is none).
    public static var standard: FileStorage {
        let base = FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first
            ?? FileManager.default.temporaryDirectory
        return FileStorage(folder: base.appendingPathComponent("AppMeter", isDirectory: true))
    }

    public func load(_ key: String) -> Data? {
        try? Data(contentsOf: file(key))
    }

    public func save(_ key: String, _ value: Data?) {
        guard let value else {
            try? FileManager.default.removeItem(at: file(key))
            return
        }
        try? value.write(to: file(key), options: .atomic)
    }

    private func file(_ key: String) -> URL {
        folder.appendingPathComponent(key.filter { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
    }
}
