import Foundation
import Logging
import MeterWire

/// The pieces ``MeterInstance`` is built from, each read or started once at its creation.
extension MeterInstance {
    /// The environment with appInfo `nol_storageDir`, when given, as its storage.
    static func environment(_ environment: MeterEnvironment, for appInfo: AppInfo) -> MeterEnvironment {
        guard let folder = appInfo.storageFolder else { return environment }
        var environment = environment
        environment.storage = FileStorage(folder: URL(fileURLWithPath: folder, isDirectory: true))
        return environment
    }

    /// The privacy profile as stored, with a choice made through another instance of the process
    /// that may not be stored yet (decisions.md P9).
    static func privacy(
        appInfo: AppInfo, flavor: SDKFlavor, environment: MeterEnvironment, issues: inout [StorageIssue]
    ) -> PrivacyProfile {
        var privacy = PrivacyProfile.load(appInfo: appInfo, flavor: flavor, environment: environment, issues: &issues)
        if let latest = environment.process.optOut.latest(storage: environment.storage.identity), privacy.persistsChoice {
            privacy.appOptOut = latest
        }
        return privacy
    }

    /// The instance's logger at appInfo `nol_devDebug`'s level, which has said how it was created.
    static func logger(appInfo: AppInfo, sdkVersion: String, flavor: SDKFlavor, environment: MeterEnvironment) -> Logger {
        var logger = environment.makeLogger(label: "AppMeter.\(appInfo.appID)")
        logger.logLevel = appInfo.debugLevel?.logLevel ?? .critical
        logger.info("init appInfo=\(appInfo.values.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")) sdk=\(sdkVersion) flavor=\(flavor.rawValue) collector=\(appInfo.collectorURL.host ?? appInfo.collectorURL.absoluteString) (a proxy's traffic filtered by this host shows the pings)")
        for notice in appInfo.initNotices { logger.warning("\(notice)") }
        return logger
    }

    /// The measurement core for this app and environment.
    static func core(
        appInfo: AppInfo, sdkVersion: String, privacy: PrivacyProfile, logger: Logger, environment: MeterEnvironment
    ) -> MeterCore {
        MeterCore(MeterCore.Settings(
            app: appInfo.measuredApp, sdkVersion: sdkVersion, identifiers: CoreIdentifiers(environment.identifiers),
            identity: privacy.pingIdentity, durationPingInterval: environment.durationPingInterval,
            checkpointInterval: environment.checkpointInterval, playheadTick: environment.playheadProcessingDelay,
            logLevel: MeterLogLevel(logger.logLevel)))
    }

    /// Queues what the instance has to say at its start: appInfo's and storage's issues, and, for
    /// the first instance of the process in its storage, the app's launch with the crash flag.
    static func reportStart(
        appInfo: AppInfo, process: MeterProcess, environment: MeterEnvironment, storageIssues: [StorageIssue],
        to inbox: CommandInbox
    ) {
        let clock = environment.clock
        var storageIssues = storageIssues
        for issue in appInfo.issues {
            inbox.push(.command(TimedCommand(.report(issue.code, issue.message), at: clock.now())))
        }
        let keepsAppRun = environment.measuresAppRun && process.appRuns.claim(environment.storage.identity)
        let previousRunCrashed = keepsAppRun && AppRunState.previousRunCrashed(environment.storage, issues: &storageIssues)
        for issue in storageIssues {
            inbox.push(.command(TimedCommand(.report(issue.code, issue.message), at: clock.now())))
        }
        if keepsAppRun {
            inbox.push(.command(TimedCommand(.appLaunched(previousRunCrashed: previousRunCrashed), at: clock.now())))
        }
    }

    /// What the instance does when the user chooses through another instance of the app: it
    /// measures under the choice from its next ping, and leaves storing it to that instance.
    static func followOptOut(
        _ privacyBox: Locked<PrivacyProfile>, inbox: CommandInbox, clock: any MeterClock
    ) -> @Sendable (Bool) -> Void {
        { optOut in
            let choice = privacyBox.withLock { profile -> PrivacyChoice? in
                guard profile.persistsChoice, profile.appOptOut != optOut else { return nil }
                profile.appOptOut = optOut
                return PrivacyChoice(optOut: optOut, identity: profile.pingIdentity, persists: false, byAnotherInstance: true)
            }
            if let choice { inbox.push(.command(TimedCommand(.setOptOut(choice), at: clock.now()))) }
        }
    }

    /// Starts fetching the app's configuration; the fetch's first problem and its result reach the
    /// core through `inbox`, each retry's time through the returned stream.
    static func fetchConfig(
        appInfo: AppInfo, sdkVersion: String, environment: MeterEnvironment, into inbox: CommandInbox
    ) -> (Task<Void, Never>, AsyncStream<MeterInstant>) {
        let clock = environment.clock
        let fetcher = ConfigFetcher(appInfo: appInfo, sdkVersion: sdkVersion, transport: environment.transport,
                                    clock: clock, retryPolicy: environment.retryPolicy)
        let (retries, retryContinuation) = AsyncStream.makeStream(of: MeterInstant.self, bufferingPolicy: .bufferingNewest(1))
        let task = Task {
            defer { retryContinuation.finish() }
            let config = await fetcher.fetch(
                firstProblem: { code, message in
                    inbox.push(.command(TimedCommand(.report(code, message), at: clock.now())))
                },
                retrying: { retryContinuation.yield($0) })
            guard let config else { return }
            inbox.push(.command(TimedCommand(.configReceived(config), at: clock.now())))
        }
        return (task, retries)
    }
}
