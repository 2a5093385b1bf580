public import MeterContract

/// A typed API call (or an outside event), handed to the core in call order. Everything untyped
/// was parsed before it became a command.
///
/// Payloads wider than a string are `indirect`: a command travels through the instance's inbox
/// by value, and `playheadPosition`'s copy costs what the widest case is (98 bytes before).
public enum MeterCommand: Sendable, Equatable {
    /// `play`, with the channel name it gave (nil or empty: the default).
    case play(channelName: String?)
    /// `loadMetadata`, parsed: the metadata (nil when unusable) and the
    /// problems found, reported only if the lifecycle takes the call.
    indirect case loadMetadata(MetadataParser.Result)
    /// `playheadPosition`.
    case playhead(Int64)
    /// `sendID3` with a Nielsen tag.
    indirect case id3(NielsenID3Tag)
    /// `trackEvent` of the simplified API, read; the core's
    /// ``SimplifiedSequencer`` turns it into the calls above.
    indirect case track(TrackedEvent)
    /// `updateOTT` (or trackEvent's `ottData`), read on the caller's thread.
    indirect case ott(OTTStatus)
    /// `trackViewability`: measure what the viewer sees and hears of the player from now on.
    indirect case trackViewability(ViewabilityTarget)
    /// The viewability provider's latest measurement.
    indirect case viewability(ViewabilitySample)
    /// `stop`.
    case stop
    /// `end`.
    case end
    /// `appDisableApi`.
    case setDisabled(Bool)
    /// `debug`.
    case setDebug(Bool)
    /// `userOptOut` with one of the two commands.
    indirect case setOptOut(PrivacyChoice)
    /// The census config arrived.
    indirect case configReceived(ConfigAnswer)
    /// A problem found outside the core (bad input, config, storage) to report in call order.
    case report(MeterEventCode, String)
    /// The app went to the background (UIKit notification, or `appInBackground()`).
    case appInBackground
    /// The app came back to the foreground.
    case appInForeground
    /// `staticEnd`: the static page's view ends; the same page loaded again is a new view.
    case staticEnd
    /// This instance is the first of its process: it keeps the app's run (launch, run time).
    case appLaunched(previousRunCrashed: Bool)
    /// The wake-up the core asked for (``MeterCore/requestedWakeUp``) has come.
    case wakeUp
    /// The instance is being released: what is open goes out in a ping.
    case release
}

/// The user's opt-out choice as the core needs it: the identity pings carry from now on, and
/// whether the choice is to be kept across launches.
public struct PrivacyChoice: Sendable, Equatable {
    /// True: opted out.
    package var optOut: Bool
    /// The identifier fields of the pings built from now on.
    package var identity: PingIdentity
    /// Whether to persist the choice (not for noID, which stores nothing).
    package var persists: Bool
    /// Made through another instance of the app (``SharedOptOut``), not by a call on this one.
    package var byAnotherInstance: Bool

    package init(optOut: Bool, identity: PingIdentity, persists: Bool, byAnotherInstance: Bool = false) {
        self.optOut = optOut
        self.identity = identity
        self.persists = persists
        self.byAnotherInstance = byAnotherInstance
    }
}

/// A command stamped with the time of the call, taken on the caller's thread.
package struct TimedCommand: Sendable {
    package let command: MeterCommand
    package let time: MeterInstant

    package init(_ command: MeterCommand, at time: MeterInstant) {
        self.command = command
        self.time = time
    }
}
