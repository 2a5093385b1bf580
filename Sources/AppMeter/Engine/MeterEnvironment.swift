public import Foundation
public import Logging

/// The outside world of an SDK instance: time, network, identity and cadence. Production code
/// uses ``MeterEnvironment/live``; tests and `meter demo` inject virtual time and a recording
/// or loopback transport.
public struct MeterEnvironment: Sendable {
    /// Stamps calls and pings, and drives every wait (retry backoff, config retry, wake-ups).
    public var clock: any MeterClock
    /// How requests reach the collector.
    public var transport: any PingTransport
    /// Session and ping ids: by default random, with ping ids stamped by ``clock``.
    public var identifiers: any IdentifierSource
    /// A duration ping is sent at the latest after this many credited seconds of one asset.
    public var durationPingInterval: Int64
    /// Where the opt-out choice, first-party id and generated vendor id are kept (appInfo
    /// `nol_storageDir` overrides it with a folder).
    public var storage: any MeterStorage
    /// The device's identifiers and ad-tracking setting.
    public var identityProvider: any DeviceIdentityProvider
    /// The flavour when appInfo has no `nol_sdkFlavor` and the market requires none: set by the
    /// build that embeds the SDK (see docs/privacy.md).
    public var defaultFlavor: SDKFlavor
    /// The device type of the opt-out page URL (`mobile`).
    public var deviceType: String
    /// How failed deliveries are retried.
    public var retryPolicy: RetryPolicy
    /// How much the durable queue may hold.
    public var queueBounds: QueueBounds
    /// Credit not yet in a ping is checkpointed to storage at the latest after this many credited
    /// seconds, bounding what a kill can lose.
    public var checkpointInterval: Int64
    /// How long `playheadPosition` calls may wait before the core takes them (0: at once): the
    /// core's playhead tick.
    public var playheadProcessingDelay: Double
    /// Whether the first instance of the process measures the app's run (launch ping with the
    /// crash flag, foreground run time). Off for test rigs that measure one stream each.
    public var measuresAppRun: Bool
    /// Where the app-lifecycle notifications (UIKit's background / foreground) are observed; nil
    /// observes none (the app calls `appInBackground()` / `appInForeground()`). Tests give each
    /// instance a center of its own.
    public var notificationCenter: NotificationCenter?
    /// Measures the player's viewability and audibility once `trackViewability` is called: UIKit's
    /// geometry and `AVAudioSession` on iOS and tvOS; nil elsewhere, where a player that wants
    /// viewability injects its own (a `trackViewability` without one is reported, error 6).
    public var viewabilityProvider: (any ViewabilityProvider)?
    /// Makes the log handler of an instance's logger (label `AppMeter.<appid>`); nil uses
    /// swift-log's bootstrapped handler. The level is set from `nol_devDebug` either way.
    public var logHandler: (@Sendable (_ label: String) -> any LogHandler)?
    /// What the process's instances share (live instances per appid, the app's run, delivery
    /// queues, the opt-out choice): ``MeterProcess/shared`` unless a test starts a fresh process.
    public var process: MeterProcess

    /// Creates an environment.
    public init(
        clock: any MeterClock = SystemClock(),
        transport: any PingTransport = URLSessionTransport(),
        identifiers: (any IdentifierSource)? = nil,
        durationPingInterval: Int64 = 60,
        storage: any MeterStorage = FileStorage.standard,
        identityProvider: any DeviceIdentityProvider = PlatformIdentityProvider(),
        defaultFlavor: SDKFlavor = .global,
        deviceType: String = "mobile",
        retryPolicy: RetryPolicy = RetryPolicy(),
        queueBounds: QueueBounds = QueueBounds(),
        checkpointInterval: Int64 = 5,
        playheadProcessingDelay: Double = 1,
        logHandler: (@Sendable (_ label: String) -> any LogHandler)? = nil,
        notificationCenter: NotificationCenter? = .default,
        measuresAppRun: Bool = true,
        viewabilityProvider: (any ViewabilityProvider)? = MeterEnvironment.platformViewabilityProvider,
        process: MeterProcess = .shared
    ) {
        self.clock = clock
        self.transport = transport
        self.identifiers = identifiers ?? RandomIdentifierSource(clock: clock)
        self.durationPingInterval = durationPingInterval
        self.storage = storage
        self.identityProvider = identityProvider
        self.defaultFlavor = defaultFlavor
        self.deviceType = deviceType
        self.retryPolicy = retryPolicy
        self.queueBounds = queueBounds
        self.checkpointInterval = checkpointInterval
        self.playheadProcessingDelay = playheadProcessingDelay
        self.logHandler = logHandler
        self.notificationCenter = notificationCenter
        self.measuresAppRun = measuresAppRun
        self.viewabilityProvider = viewabilityProvider
        self.process = process
    }

    /// A logger labelled `label`, through ``logHandler`` when set.
    public func makeLogger(label: String) -> Logger {
        guard let logHandler else { return Logger(label: label) }
        return Logger(label: label, factory: logHandler)
    }

    /// The real clock, `URLSession` and random ids.
    public static var live: MeterEnvironment { MeterEnvironment() }
}
