import Foundation

/// The first-party id (`fp_id`, Poland page): created once, kept with its creation and last
/// access times, regenerated after ``lifetime``, wiped when appInfo sets `enableFpid` to `false`.
public struct FirstPartyID: Sendable, Equatable, Codable {
    /// The id.
    public var id: String
    /// When it was created (Unix seconds).
    public var createdAt: Int64
    /// When an instance last used it (Unix seconds).
    public var accessedAt: Int64

    /// 180 days, in seconds.
    public static let lifetime: Int64 = 180 * 86_400
    static let storageKey = "fpid"

    /// The id to use now: the stored one (access time updated), or a new one when there is none
    /// or it is 180 days old. With `enabled` false the stored id is wiped and nil returned.
    static func resolve(
        enabled: Bool, storage: MeterStorage, now: Int64, identifiers: IdentifierSource
    ) -> FirstPartyID? {
        guard enabled else {
            storage.save(storageKey, nil)
            return nil
        }
        var current = storage.load(storageKey).flatMap { try? JSONDecoder().decode(FirstPartyID.self, from: $0) }
        if current == nil || now - current!.createdAt >= lifetime || now < current!.createdAt {
            current = FirstPartyID(id: identifiers.newFirstPartyID(), createdAt: now, accessedAt: now)
        }
        current!.accessedAt = now
        storage.save(storageKey, try? JSONEncoder().encode(current!))
        return current
    }
}
