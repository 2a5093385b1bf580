import Foundation

/// The first-party id (`fp_id`, Poland page): created once, kept with its creation and last
/// access times, regenerated after ``lifetime``, wiped when appInfo sets `enableFpid` to `false`.
package struct FirstPartyID: Sendable, Equatable, Codable {
    /// The id.
    package var id: String
    /// When it was created (Unix seconds).
    package var createdAt: Int64
    /// When an instance last used it (Unix seconds).
    package var accessedAt: Int64

    /// 180 days, in seconds.
    package static let lifetime: Int64 = 180 * 86_400
    static let storageKey = "fpid"

    /// The id to use now: the stored one (access time updated), or a new one when there is none
    /// or it is 180 days old. With `enabled` false the stored id is wiped and nil returned.
    /// Storage failures are added to `issues`; the id then lives for this launch only.
    static func resolve(
        enabled: Bool, storage: any MeterStorage, now: Int64, identifiers: any IdentifierSource, issues: inout [StorageIssue]
    ) -> FirstPartyID? {
        guard enabled else {
            do { try storage.save(storageKey, nil) } catch {
                issues.append(.write("the first-party id removal", error, instead: "the old id stays on disk but is not sent"))
            }
            return nil
        }
        var current: FirstPartyID?
        do {
            current = try storage.load(storageKey).flatMap { try? JSONDecoder().decode(FirstPartyID.self, from: $0) }
        } catch {
            issues.append(.read("the first-party id", error, instead: "a new one is used"))
        }
        if current == nil || now - current!.createdAt >= lifetime || now < current!.createdAt {
            current = FirstPartyID(id: identifiers.newFirstPartyID(), createdAt: now, accessedAt: now)
        }
        current!.accessedAt = now
        do { try storage.save(storageKey, try? JSONEncoder().encode(current!)) } catch {
            issues.append(.write("the first-party id", error, instead: "it is used for this launch only"))
        }
        return current
    }
}
