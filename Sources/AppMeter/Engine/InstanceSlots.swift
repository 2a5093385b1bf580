/// Counts live instances per appid: the documented limit is four, and a fifth init fails until
/// an older instance is released.
final class InstanceSlots: Sendable {
    static let maxInstancesPerAppID = 4
    private let live = Locked([String: Int]())

    /// Takes a slot for `appID`; false when all four are taken.
    func acquire(_ appID: String) -> Bool {
        live.withLock { counts in
            let count = counts[appID, default: 0]
            guard count < Self.maxInstancesPerAppID else { return false }
            counts[appID] = count + 1
            return true
        }
    }

    /// Frees a slot taken by ``acquire(_:)``.
    func release(_ appID: String) {
        live.withLock { counts in
            let count = counts[appID, default: 0]
            counts[appID] = count > 1 ? count - 1 : nil
        }
    }
}
