import Foundation

/// The user's opt-out choice is the app's, not an instance's: a choice made through one instance
/// reaches every other live instance that keeps its state in the same storage (the same app),
/// which measures under it from its next ping on.
///
/// Instances join with a callback that only queues a command on their own inbox, so a choice never
/// runs another instance's code on the caller's thread beyond a lock and an append.
final class SharedOptOut: Sendable {
    private struct App {
        var members: [UUID: @Sendable (Bool) -> Void] = [:]
        /// The last choice made while an instance of the app was live: the stored one may not be
        /// written yet.
        var latest: Bool?
    }

    private let apps = Locked([String: App]())

    /// The last choice made through a live instance of the app, if any.
    func latest(storage: String) -> Bool? {
        apps.withLock { $0[storage]?.latest }
    }

    /// Hears the choices other instances of the app make, until ``leave(_:storage:)``; returns the
    /// last choice made so far, so that one made while the instance was being created is not missed.
    func join(_ instance: UUID, storage: String, onChoice: @escaping @Sendable (Bool) -> Void) -> Bool? {
        apps.withLock { apps in
            apps[storage, default: App()].members[instance] = onChoice
            return apps[storage]?.latest
        }
    }

    /// Stops hearing them (the instance is gone).
    func leave(_ instance: UUID, storage: String) {
        apps.withLock { apps in
            apps[storage]?.members[instance] = nil
            // With no instance left the stored choice is the app's memory; a storage identity may
            // also be reused by a new storage (an in-memory one at the same address).
            if apps[storage]?.members.isEmpty == true { apps[storage] = nil }
        }
    }

    /// Tells every other instance of the app that the user chose `optOut`.
    func announce(_ optOut: Bool, from instance: UUID, storage: String) {
        let others = apps.withLock { apps -> [@Sendable (Bool) -> Void] in
            guard apps[storage] != nil else { return [] }
            apps[storage]?.latest = optOut
            return (apps[storage]?.members ?? [:]).filter { $0.key != instance }.map(\.value)
        }
        for onChoice in others { onChoice(optOut) }
    }
}
