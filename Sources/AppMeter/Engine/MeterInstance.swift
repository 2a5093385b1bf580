import Foundation
import Logging
import MeterWire

/// One measurement instance: the engine behind a `NielsenAppApi` object.
///
/// Every method returns at once and may be called from any thread; calls are processed in the
/// order they were made. Reading properties never waits for processing: they reflect the calls
/// processed so far (call ``flush()`` to wait for all of them).
public final class MeterInstance: Sendable {
    /// This engine's version, reported as `meterVersion`.
    public static let version = MeterRelease.version

    /// The validated appInfo.
    public let appInfo: AppInfo
    /// The SDK version sent in pings (`c16=sdkv,…`): `ai.` on Apple platforms, `al.` on Linux.
    public let sdkVersion: String
    /// The SDK flavour in force: the market's requirement, else appInfo `nol_sdkFlavor`, else
    /// the environment's default.
    public let flavor: SDKFlavor

    private let inbox: CommandInbox
    private let clock: any MeterClock
    private let runner: MeterRunner
    private let delivery: DeliveryQueue
    private let snapshotBox: Locked<MeterSnapshot>
    private let disabledRequest = Locked(false)
    private let debugRequest = Locked(false)
    /// The privacy profile: its one owner. `userOptOut` changes it here and hands the core the
    /// identity pings carry from then on.
    private let privacyBox: Locked<PrivacyProfile>
    /// Applies the user's opt-out choice (`userOptOut`, `trackEvent`'s `optout`).
    private let optOutSwitch: OptOutSwitch
    private let configTask: Task<Void, Never>
    /// The runner's loop: it ends once the inbox is closed (at deinit) and what was queued before
    /// is handled, so a released instance's last calls still become pings. Never cancelled.
    private let runnerTask: Task<Void, Never>
    private let configRetries: AsyncStream<MeterInstant>
    private let lifecycle: AppLifecycleObserver
    private let viewabilityProvider: (any ViewabilityProvider)?
    private let deviceType: String
    private let instanceID: UUID
    /// Counted against the four live instances of its appid.
    private let holdsInstanceSlot: Bool
    /// Where the app keeps its state: the instances sharing it share the user's opt-out choice.
    private let storageIdentity: String
    /// What this instance shares with the others of its process.
    private let process: MeterProcess
    /// The call trace's session id when this instance streams its trace to the census
    /// (``AppInfo/tracesCalls``): `meter certify --session` takes it. Nil otherwise.
    public let traceSession: String?

    /// Creates a working instance, or returns nil when `limitsInstances` and `appInfo.appID`
    /// already has four live instances.
    ///
    /// - Parameters:
    ///   - appInfo: validated appInfo.
    ///   - environment: clock, transport, storage, identifiers and cadence.
    ///   - limitsInstances: apply the standard API's four live instances per appid (the API
    ///     reference); the simplified API has no limit (its guide, since 6.0.0).
    ///   - events: receives every event and error, in order, on an SDK-owned task.
    public init?(
        appInfo: AppInfo, environment: MeterEnvironment = .live, limitsInstances: Bool = true,
        events: @escaping @Sendable (MeterEvent) -> Void = { _ in }
    ) {
        let process = environment.process
        guard !limitsInstances || process.instances.acquire(appInfo.appID) else { return nil }
        holdsInstanceSlot = limitsInstances
        self.process = process
        let environment = Self.environment(environment, for: appInfo)
        let clock = environment.clock
        self.appInfo = appInfo
        let flavor = SDKFlavor.inForce(required: appInfo.market.requiredFlavor, requested: appInfo.flavor,
                                       fallback: environment.defaultFlavor)
        self.flavor = flavor
        let sdkVersion = Self.platformVersion
        self.sdkVersion = sdkVersion
        self.clock = clock
        deviceType = environment.deviceType
        let storageIdentity = environment.storage.identity
        self.storageIdentity = storageIdentity
        let instanceID = UUID()
        self.instanceID = instanceID
        let traceSession = appInfo.tracesCalls ? instanceID.uuidString.lowercased() : nil
        self.traceSession = traceSession
        viewabilityProvider = environment.viewabilityProvider

        // A few small values are read at creation, as SDKs read their defaults.
        var storageIssues: [StorageIssue] = []
        let privacy = Self.privacy(appInfo: appInfo, flavor: flavor, environment: environment, issues: &storageIssues)
        let privacyBox = Locked(privacy)
        self.privacyBox = privacyBox
        let optOutSwitch = OptOutSwitch(privacy: privacyBox, process: process, instanceID: instanceID,
                                        storageIdentity: storageIdentity)
        self.optOutSwitch = optOutSwitch
        let logger = Self.logger(appInfo: appInfo, sdkVersion: sdkVersion, flavor: flavor, environment: environment)
        let snapshot = Locked(MeterSnapshot(state: .idle))
        snapshotBox = snapshot
        let delivery = process.deliveryQueues.queue(baseURL: appInfo.collectorURL, environment: environment)
        self.delivery = delivery
        let runner = MeterRunner(
            instanceID: instanceID,
            reader: ArgumentReader(market: appInfo.market, optOut: optOutSwitch),
            core: Self.core(appInfo: appInfo, sdkVersion: sdkVersion, privacy: privacy, logger: logger, environment: environment),
            tracer: traceSession.map { CallTraceRecorder(session: $0, appID: appInfo.appID, settings: appInfo.values,
                                                         sdkVersion: sdkVersion, flavor: flavor.rawValue, at: clock.now()) },
            delivery: delivery, reporter: EventReporter(snapshot: snapshot, logger: logger, sink: events),
            snapshot: snapshot, environment: environment)
        self.runner = runner
        let inbox = CommandInbox(clock: clock)
        self.inbox = inbox

        Self.reportStart(appInfo: appInfo, process: process, environment: environment, storageIssues: storageIssues, to: inbox)
        let follow = Self.followOptOut(privacyBox, inbox: inbox, clock: clock)
        if let latest = process.optOut.join(instanceID, storage: storageIdentity, onChoice: follow) { follow(latest) }
        lifecycle = AppLifecycleObserver(center: environment.notificationCenter) { inForeground in
            inbox.push(.command(TimedCommand(inForeground ? .appInForeground : .appInBackground, at: clock.now())))
        }
        runnerTask = Task { await runner.run(inbox) }
        let (configTask, configRetries) = Self.fetchConfig(appInfo: appInfo, sdkVersion: sdkVersion, environment: environment, into: inbox)
        self.configTask = configTask
        self.configRetries = configRetries
    }

    deinit {
        viewabilityProvider?.stop()
        configTask.cancel()
        process.optOut.leave(instanceID, storage: storageIdentity)
        inbox.close()
        if holdsInstanceSlot { process.instances.release(appInfo.appID) }
    }

    /// The version string for this platform, e.g. `ai.1.0.0`.
    public static var platformVersion: String { platformPrefix + "." + version }

    /// `ai` on Apple platforms, `al` on Linux.
    #if canImport(Darwin)
    public static let platformPrefix = "ai"
    #else
    public static let platformPrefix = "al"
    #endif

    private func submit(_ command: MeterCommand) {
        inbox.push(.command(TimedCommand(command, at: clock.now())))
    }

    /// Reports the playhead: seconds for VOD, Unix seconds for live. Never wakes the engine while
    /// playheads flow (see `CommandInbox`): the caller pays a clock read, a lock and an append.
    public func playheadPosition(_ position: Int64) {
        inbox.push(.command(TimedCommand(.playhead(position), at: clock.now())), lazy: true)
    }

    /// Passes a timed-metadata string from the stream (`sendID3`). Anything that is not a Nielsen
    /// tag (`www.nielsen.com/…`) is ignored without a word, as the guides tell apps to pass every
    /// item; a Nielsen tag that does not parse is reported as error 3. Read in call order on the
    /// instance's task (decisions.md E12): the caller's thread only recognises the prefix, and,
    /// like a playhead, never wakes the engine while playheads flow.
    public func sendID3(_ ownerString: String) {
        guard NielsenID3Tag.isNielsen(ownerString) else { return }
        inbox.push(.deferred(.id3(ownerString), at: clock.now()), lazy: true)
    }

    /// Starts a viewing session (`play`).
    public func play(channelName: String?) { submit(.play(channelName: channelName)) }

    /// Loads content or ad metadata, as the string dictionary the app passed: read in call order
    /// on the instance's task for this instance's market (decisions.md E12); problems are reported
    /// in call order.
    public func loadMetadata(_ values: [String: String]) {
        loadMetadata(untyped: values)
    }

    /// ``loadMetadata(_:)`` with the metadata as the facade received it: a dictionary or a JSON
    /// object string (anything else is reported as error 2).
    package func loadMetadata(untyped metadata: Any) {
        inbox.push(.deferred(.loadMetadata(UntypedArgument(metadata)), at: clock.now()))
    }

    /// The simplified API's one call (`trackEvent`), as the object the app passed (a dictionary, or
    /// a JSON object string): handed over unread and read in call order on the instance's task
    /// (decisions.md E12), then put in order by the core (`SimplifiedSequencer`). An `optout`
    /// string is applied first, as ``userOptOut(_:)``; an unreadable event is reported as error 2.
    /// Made every second while playing, it never wakes the engine while playheads flow.
    public func trackEvent(_ object: [String: Any]) {
        deferEvent(UntypedArgument(object))
    }

    /// ``trackEvent(_:)`` with an `NSDictionary`'s keys.
    package func trackEvent(_ object: [AnyHashable: Any]) {
        deferEvent(UntypedArgument(object))
    }

    /// ``trackEvent(_:)`` with the object as the facade received it: a JSON object string (or
    /// anything else, which is reported as error 2).
    package func trackEvent(untyped object: Any) {
        deferEvent(UntypedArgument(object))
    }

    /// Hands a `trackEvent` object to the runner; like a playhead, it does not wake the engine
    /// while playheads flow. (Three typed entries, so a dictionary is not boxed as `Any` and cast
    /// back: `UntypedArgument`'s overloads.)
    @inline(__always)
    private func deferEvent(_ argument: consuming UntypedArgument) {
        inbox.push(.deferred(.trackEvent(argument), at: clock.now()), lazy: true)
    }

    /// `updateOTT`: the stream now plays (or no longer plays) on an OTT device. Read here, on the
    /// caller's thread; a missing or invalid `ottStatus` is reported as error 2 and ignored.
    public func updateOTT(_ values: [String: String]) {
        let (status, issues) = OTTStatus.parse(values)
        for issue in issues { reportInputError(issue.code ?? .failedParseMetadata, "updateOTT: '\(issue.key)' \(issue.problem)") }
        if let status { submit(.ott(status)) }
    }

    /// `trackViewability`: starts measuring what the viewer sees and hears of the player (the
    /// environment's `ViewabilityProvider`); its series go out with each measurement ping. Without
    /// a provider (Linux, unless one is injected) the call is reported (error 6) and ignored.
    public func trackViewability(_ target: ViewabilityTarget) {
        guard let provider = viewabilityProvider else {
            return reportInputError(
                .failedStartProcessor,
                "trackViewability: no viewability provider on this platform; set MeterEnvironment.viewabilityProvider")
        }
        submit(.trackViewability(target))
        let inbox = self.inbox
        let clock = self.clock
        provider.start(target) { sample in
            inbox.push(.command(TimedCommand(.viewability(sample), at: clock.now())))
        }
    }

    /// The app went to the background: a static page's time pauses, video without
    /// picture-in-picture is interrupted, queued pings go out at once. On Apple platforms the SDK
    /// observes this itself; elsewhere (Linux, tests) the app says so.
    public func appInBackground() { submit(.appInBackground) }

    /// The app came back to the foreground; after more than 30 minutes a new viewing session starts.
    public func appInForeground() { submit(.appInForeground) }

    /// Ends the static page's view (public header `staticEnd`): its time goes out, and the same
    /// page loaded again is a new view.
    public func staticEnd() { submit(.staticEnd) }

    /// Pauses measurement (`stop`).
    public func stop() { submit(.stop) }
    /// Ends the content (`end`).
    public func end() { submit(.end) }

    /// Turns verbose (DEBUG) logging on or off at run time; off returns to the `nol_devDebug` level.
    public var debug: Bool {
        get { debugRequest.withLock { $0 } }
        set {
            debugRequest.withLock { $0 = newValue }
            submit(.setDebug(newValue))
        }
    }

    /// Reports an input error found while parsing a call; it is delivered in call order.
    package func reportInputError(_ code: MeterEventCode, _ description: String) {
        submit(.report(code, description))
    }

    /// The kill switch (`appDisableApi`). Reading returns what is in force: true after the app set
    /// it, and while the census has disabled measurement for this appid (config `enabled: false`),
    /// whatever the app set.
    public var isDisabled: Bool {
        get { disabledRequest.withLock { $0 } || snapshotBox.withLock { $0.state == .disabledByCensus } }
        set {
            disabledRequest.withLock { $0 = newValue }
            submit(.setDisabled(newValue))
        }
    }

    // MARK: Privacy

    /// Records the user's choice from the opt-out page: `nielsenappsdk://1` opts out,
    /// `nielsenappsdk://0` opts in. Returns true when `command` was one of them; any other string
    /// returns false and changes nothing. The choice is kept across launches. The noID flavour
    /// stays opted out whatever the choice.
    public func userOptOut(_ command: String) -> Bool {
        guard let choice = optOutSwitch.apply(command) else { return false }
        submit(.setOptOut(choice))
        return true
    }

    /// Opted out at OS level (ad tracking limited) or app level (the user's choice); always for noID.
    public var optOutStatus: Bool { privacyBox.withLock { $0.optedOut } }

    /// The opt-out page to show in a web view, for this flavour and market.
    public var optOutURL: String {
        OptOutPage.url(flavor: flavor, market: appInfo.market, deviceType: deviceType)
    }

    /// The device id sent in pings (SHA-256 hex), or "" when opted out or noID.
    public var demographicID: String {
        privacyBox.withLock { $0.optedOut ? "" : $0.hashedDeviceID ?? "" }
    }

    /// The vendor id sent in pings (SHA-256 hex), or "" when opted out or noID.
    public var vendorID: String {
        privacyBox.withLock { $0.optedOut ? "" : $0.hashedVendorID ?? "" }
    }

    /// The first-party id sent in pings, or "" when opted out, disabled (`enableFpid`) or noID.
    public var firstPartyID: String {
        privacyBox.withLock { $0.optedOut ? "" : $0.firstPartyID?.id ?? "" }
    }

    // MARK: Observing

    /// The delivery queue now: pings queued and their bytes, counters of delivered, retried,
    /// recovered and dropped pings by reason, storage failures, whether sending is paused and when
    /// the next retry is due.
    public var diagnostics: DeliveryDiagnostics {
        delivery.published.withLock { $0 }
    }

    /// What has been processed so far.
    public var snapshot: MeterSnapshot { snapshotBox.withLock { $0 } }

    /// Waits until every call made before it has been processed. Delivery may still be under way.
    public func waitUntilProcessed() async {
        await withCheckedContinuation { continuation in
            inbox.push(.barrier(CommandInbox.Barrier(continuation)))
        }
    }

    /// Waits until every call made before it is processed and every ping built has been delivered
    /// or refused (or sending is paused). The waiting happens outside the engine: calls made
    /// meanwhile are processed and checkpointed as usual, even during a collector outage.
    public func flush() async {
        await waitUntilProcessed()
        _ = await delivery.waitUntilSettled()
        // What delivery reported comes to the delegate through the runner: let it through.
        await waitUntilProcessed()
    }

    /// Waits until the census config has arrived and been applied (event 2001, or Disabled when
    /// the census turned the appid off). While the census is unreachable this keeps waiting.
    public func waitUntilConfigured() async {
        await configTask.value
        await flush()
    }

    /// Waits until the delivery queue is idle or waits for a retry, and says which.
    package func deliverySettlement() async -> QueueSettlement {
        await delivery.waitUntilSettled(orBackingOff: true)
    }

    // MARK: Virtual time

    /// ``flush()`` on a virtual clock: whenever the queue waits for a retry, moves `clock` to
    /// when it is due, until everything is delivered or refused.
    public func flush(advancing clock: VirtualClock) async {
        while true {
            await waitUntilProcessed()
            guard case .retrying(let due) = await delivery.waitUntilSettled(orBackingOff: true) else {
                return await waitUntilProcessed()
            }
            clock.advance(to: due)
        }
    }

    /// ``waitUntilConfigured()`` on a virtual clock: moves `clock` to each config retry.
    package func waitUntilConfigured(advancing clock: VirtualClock) async {
        for await due in configRetries { clock.advance(to: due) }
        await configTask.value
        await flush(advancing: clock)
    }
}
