import Foundation

/// Which instance keeps the app's run: the first one created in the process for a storage (so the
/// launch is counted once, and a test's fresh storage is a fresh app).
final class AppRunClaims: Sendable {
    private let claimed = Locked(Set<String>())

    /// True once per process for each storage identity.
    func claim(_ storageIdentity: String) -> Bool {
        claimed.withLock { $0.insert(storageIdentity).inserted }
    }
}

/// The app's run state, kept in its storage under ``key``: "running" from launch and foreground,
/// "clean" at the background or release.
enum AppRunState {
    static let key = "run-state"
    static let running = Data("running".utf8)
    static let clean = Data("clean".utf8)

    /// Whether the previous run in `storage` ended without reaching the background or a release.
    static func previousRunCrashed(_ storage: any MeterStorage, issues: inout [StorageIssue]) -> Bool {
        do {
            return try storage.load(key) == running
        } catch {
            issues.append(.read("the previous run's state", error, instead: "its crash flag is 0"))
            return false
        }
    }
}
