
/// What the core wants done after a command; its owner (``MeterRunner``) does it, in order.
package enum MeterEffect: Sendable, Equatable {
    /// Persist `record` in the delivery queue and send it; with `clearingCheckpoint`, the
    /// instance's credit checkpoint in that slot (same ping id) is removed afterwards.
    case enqueue(PingRecord, clearingCheckpoint: CheckpointSlot?)
    /// Store `record` as the instance's credit checkpoint in `slot`, replacing the previous one.
    /// With `creditOnly`, `record` is the slot's previous checkpoint with only its credit and
    /// creation time changed (same ping id, same context revision), so the owner may store just
    /// those two (decisions.md D14).
    case checkpoint(PingRecord, slot: CheckpointSlot, creditOnly: Bool)
    /// Report an event or error to the delegate, stamped with the command's time.
    case report(MeterEventCode, String)
    /// Write a log line (the core filters by its log level before asking).
    case log(MeterLogLevel, String)
    /// Change the instance's log level (the `debug` property).
    case setLogLevel(MeterLogLevel)
    /// Stop sending (`appDisableApi = true`): pings stay queued.
    case pauseDelivery
    /// Lift this instance's pause.
    case resumeDelivery
    /// Cut a retry backoff short (end of content, background, release).
    case deliverPromptly
    /// Keep the user's opt-out choice across launches.
    case persistOptOut(Bool)
    /// Record whether the app's run is going on (true) or ended cleanly (false): a run still
    /// "going on" at the next launch crashed or was killed in the foreground.
    case markRun(running: Bool)
}

/// Where a product part keeps its credit checkpoint: one per part, so that parts measuring at the
/// same time (DCR and DTVR on one stream) never overwrite each other's.
package enum CheckpointSlot: String, Sendable, CaseIterable {
    case dcr
    case dtvr
    case staticPage = "static"
    case appRun = "app"
}

/// What the core has done so far, published to ``MeterSnapshot`` by its owner.
package struct MeterProgress: Sendable, Equatable {
    /// Calls ignored by the lifecycle table.
    package var ignoredCalls = 0
    /// Seconds credited so far, per asset.
    package var creditedSeconds: [AssetKey: Int64] { credited.entries }
    /// The same, remembering the asset credited last (``RecentKeyDictionary``).
    var credited = RecentKeyDictionary<AssetKey, Int64>()
    /// Pings built so far.
    package var pingsBuilt = 0

    package init() {}
}

/// What a product part writes while the core handles one command: its effects, and what the
/// core adds to its ``MeterProgress`` once the command is handled.
///
/// The counts are this command's alone, not the totals swapped in and out: an emission is made
/// for every command, and moving the totals (and the owner's untaken credit) through it was
/// half of a playhead's cost in the core (docs/performance.md).
struct Emission {
    var effects: [MeterEffect]
    let logLevel: MeterLogLevel
    /// Calls this command had ignored.
    var ignoredCalls = 0
    /// Pings built for this command.
    private(set) var pingsBuilt = 0
    /// The first credit given for this command: a command credits one asset, seldom more.
    private(set) var firstCredit: AssetCredit?
    /// The credit given after the first, in order.
    private(set) var laterCredits: [AssetCredit] = []

    /// Seconds credited to an asset.
    struct AssetCredit {
        let key: AssetKey
        let seconds: Int64
    }

    init(effects: [MeterEffect], logLevel: MeterLogLevel) {
        self.effects = effects
        self.logLevel = logLevel
    }

    /// Credits `seconds` to `key`: the core adds it to the totals and the changes the owner takes.
    mutating func credit(_ key: AssetKey, _ seconds: Int64) {
        if firstCredit == nil {
            firstCredit = AssetCredit(key: key, seconds: seconds)
        } else {
            laterCredits.append(AssetCredit(key: key, seconds: seconds))
        }
    }

    mutating func report(_ code: MeterEventCode, _ description: String) {
        effects.append(.report(code, description))
    }

    mutating func log(_ level: MeterLogLevel, _ message: @autoclosure () -> String) {
        guard level >= logLevel else { return }
        effects.append(.log(level, message()))
    }

    /// Reports `issue` of a `call`'s input: an error event naming the key, or a WARN line for an
    /// issue with no code (decisions.md M11a).
    mutating func tell(_ issue: MetadataIssue, _ call: String) {
        let message = "\(call): '\(issue.key)' \(issue.problem)"
        if let code = issue.code { report(code, message) } else { log(.warning, message) }
    }

    /// Queues `ping` for delivery; with `slot`, it replaces the checkpoint kept there.
    mutating func send(_ ping: Ping, clearing slot: CheckpointSlot? = nil) {
        pingsBuilt += 1
        // Joined by hand: Embedded Swift (the browser's engine) cannot print an array.
        log(.debug, "ping built " + ping.parameters.map { $0.description }.joined(separator: "&"))
        effects.append(.enqueue(PingRecord(ping: ping, recovered: false), clearingCheckpoint: slot))
    }
}
