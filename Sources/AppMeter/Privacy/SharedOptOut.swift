import Foundation

/// The user's opt-out choice is the app's, not an instance's: a choice made through one instance
/// reaches every other live instance that keeps its state in the same storage (the same app),
/// which measures under it from its next ping on.
///
/// Instances join with a callback that only queues a command on their own inbox, so a choice never
/// runs another instance's code on the caller's thread beyond a lock and an append.
enum SharedOptOut {
    private struct App {
        var members: [UUID: @Sendable (Bool) -> Void] = [:]
        /// The last choice made in this process: the stored one may not be written yet.
        var latest: Bool?
    }

    private static let apps = Locked([String: App]())

    /// The last choice made through any instance of the app in this process, if any.
    static func latest(storage: String) -> Bool? {
        apps.withLock { $0[storage]?.latest }
    }

    /// Hears the choices other instances of the app make, until ``leave(_:storage:)``; returns the
    /// last choice made so far, so that one made while the instance was being created is not missed.
    static func join(_ instance: UUID, storage: String, onChoice: @escaping @Sendable (Bool) -> Void) -> Bool? {
        apps.withLock { apps in
            apps[storage, default: App()].members[instance] = onChoice
            return apps[storage]?.latest
        }
    }

    /// Stops hearing them (the instance is gone).
    static func leave(_ instance: UUID, storage: String) {
        apps.withLock { $0[storage]?.members[instance] = nil }
    }

    /// Tells every other instance of the app that the user chose `optOut`.
    static func announce(_ optOut: Bool, from instance: UUID, storage: String) {
        let others = apps.withLock { apps in
            apps[storage, default: App()].latest = optOut
            return apps[storage, default: App()].members.filter { $0.key != instance }.map(\.value)
        }
        for onChoice in others { onChoice(optOut) }
    }
}
