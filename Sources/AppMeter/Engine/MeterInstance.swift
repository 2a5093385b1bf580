import Foundation
import Logging

/// One measurement instance: the engine behind a `NielsenAppApi` object.
///
/// Every method returns at once and may be called from any thread; calls are processed in the
/// order they were made. Reading properties never waits for processing: they reflect the calls
/// processed so far (call ``flush()`` to wait for all of them).
public final class MeterInstance: Sendable {
    /// This engine's version, reported as `meterVersion`.
    public static let version = "1.0.0"

    /// The validated appInfo.
    public let appInfo: AppInfo
    /// The SDK version sent in pings (`c16=sdkv,…`): `ai.` on Apple platforms, `al.` on Linux.
    public let sdkVersion: String

    private let inbox: CommandInbox
    private let clock: MeterClock
    private let engine: MeterEngine
    private let snapshotBox: Locked<MeterSnapshot>
    private let disabledRequest = Locked(false)
    private let debugRequest = Locked(false)
    private let configTask: Task<Void, Never>
    private let privacyBox: Locked<PrivacyProfile>
    private let deviceType: String

    /// The SDK flavour in force: the market's requirement, else appInfo `nol_sdkFlavor`, else
    /// the environment's default.
    public let flavor: SDKFlavor

    /// Creates a working instance, or returns nil when `appInfo.appID` already has four live instances.
    ///
    /// - Parameters:
    ///   - appInfo: validated appInfo.
    ///   - environment: clock, transport, identifiers and cadence.
    ///   - events: receives every event and error, in order, on an SDK-owned task.
    public init?(
        appInfo: AppInfo, environment: MeterEnvironment = .live,
        events: @escaping @Sendable (MeterEvent) -> Void = { _ in }
    ) {
        guard InstanceRegistry.acquire(appInfo.appID) else { return nil }
        inbox = CommandInbox(lazyTick: environment.playheadProcessingDelay)
        var environment = environment
        if let folder = appInfo.storageFolder {
            environment.storage = FileStorage(folder: URL(fileURLWithPath: folder, isDirectory: true))
        }
        flavor = appInfo.market.requiredFlavor ?? appInfo.flavor ?? environment.defaultFlavor
        // Reading a few small values at creation, as SDKs read their defaults; writes happen on the engine.
        let privacy = PrivacyProfile.load(appInfo: appInfo, flavor: flavor, environment: environment)
        privacyBox = Locked(privacy)
        deviceType = environment.deviceType
        self.appInfo = appInfo
        sdkVersion = Self.platformPrefix + "." + Self.version
        clock = environment.clock
        var logger = Logger(label: "AppMeter.\(appInfo.appID)")
        logger.logLevel = appInfo.debugLevel?.logLevel ?? .critical
        let snapshot = Locked(MeterSnapshot(state: .idle))
        snapshotBox = snapshot
        let reporter = EventReporter(snapshot: snapshot, logger: logger, sink: events)
        let delivery = DeliveryQueueRegistry.queue(baseURL: appInfo.collectorURL, environment: environment)
        AppLifecycleObserver.startObserving()
        let engine = MeterEngine(
            appInfo: appInfo, sdkVersion: sdkVersion, environment: environment, delivery: delivery,
            snapshot: snapshot, reporter: reporter, privacy: privacy)
        self.engine = engine
        let inbox = self.inbox
        let clock = environment.clock
        let lazyWake = environment.playheadProcessingDelay > 0
        let instanceID = engine.instanceID
        Task {
            // The first instance to attach opens (and recovers) the queue, before anyone enqueues.
            await delivery.attach(instanceID, reporter: reporter)
            var batch: [TimedCommand] = []
            batch.reserveCapacity(16)
            while await inbox.next(into: &batch, lazyWake: lazyWake && snapshot.withLock { $0.state == .processing }) {
                await engine.process(batch)
            }
            await engine.shutdown(at: clock.now())
        }
        let fetcher = ConfigFetcher(appInfo: appInfo, sdkVersion: sdkVersion, environment: environment, reporter: reporter)
        configTask = Task {
            guard let config = await fetcher.fetch() else { return }
            inbox.push(TimedCommand(command: .configReceived(config), time: clock.now()))
        }
    }

    deinit {
        configTask.cancel()
        inbox.close()
        InstanceRegistry.release(appInfo.appID)
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
        inbox.push(TimedCommand(command: command, time: clock.now()))
    }

    /// Reports the playhead: seconds for VOD, Unix seconds for live. Never wakes the engine (see
    /// ``CommandInbox``): the caller pays a clock read, a lock and an append.
    public func playheadPosition(_ position: Int64) {
        inbox.push(TimedCommand(command: .playhead(position), time: clock.now()), lazy: true)
    }

    /// Starts a viewing session (`play`).
    public func play(channelName: String?) { submit(.play(channelName: channelName)) }
    /// Loads content or ad metadata, as the string dictionary the app passed.
    public func loadMetadata(_ values: [String: String]) { submit(.loadMetadata(values)) }
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
    public func reportInputError(_ code: MeterEventCode, _ description: String) {
        submit(.inputError(code, description))
    }

    /// The kill switch (`appDisableApi`). Reading returns the last value set.
    public var isDisabled: Bool {
        get { disabledRequest.withLock { $0 } }
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
        guard let optOut = OptOutPage.choice(in: command) else { return false }
        privacyBox.withLock { $0.appOptOut = optOut }
        submit(.setOptOut(optOut))
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

    /// The delivery queue now: pings queued and their bytes, counters of delivered, retried,
    /// recovered and dropped pings by reason, damaged records skipped, and whether sending is paused.
    public var diagnostics: DeliveryDiagnostics {
        engine.deliveryQueue.published.withLock { $0 }
    }

    /// What has been processed so far.
    public var snapshot: MeterSnapshot { snapshotBox.withLock { $0 } }

    /// Waits until the census config has arrived and been applied (event 2001, or Disabled when
    /// the census turned the appid off). While the census is unreachable this keeps waiting.
    public func waitUntilConfigured() async {
        await configTask.value
        await flush()
    }

    /// Waits until every call made before it is processed and every ping built has been
    /// delivered or refused.
    public func flush() async {
        await withCheckedContinuation { continuation in
            inbox.push(TimedCommand(command: .barrier(continuation), time: clock.now()))
        }
    }
}
