import Foundation

/// Applies the user's choice from the opt-out page, for `userOptOut` and `trackEvent`'s `optout`
/// alike: the instance's privacy profile changes here, the other instances sharing its storage
/// are told, and the core gets the identity pings carry from then on.
struct OptOutSwitch: Sendable {
    let privacy: Locked<PrivacyProfile>
    let process: MeterProcess
    let instanceID: UUID
    let storageIdentity: String

    /// Records the choice `command` names (`nielsenappsdk://1` out, `nielsenappsdk://0` in) and
    /// returns what the core takes; nil, changing nothing, for any other string.
    func apply(_ command: String) -> PrivacyChoice? {
        guard let optOut = OptOutPage.choice(in: command) else { return nil }
        let choice = privacy.withLock { profile -> PrivacyChoice in
            profile.appOptOut = optOut
            return PrivacyChoice(optOut: optOut, identity: profile.pingIdentity, persists: profile.persistsChoice)
        }
        process.optOut.announce(optOut, from: instanceID, storage: storageIdentity)
        return choice
    }
}
