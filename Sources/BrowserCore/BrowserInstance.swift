package import MeasurementCore
import MeterContract

/// One instance of the browser SDK (`NOLBUNDLE.nlsQ`): the app SDK's engine (``MeterCore``) fed
/// with the guide's `ggPM` calls, its effects written as lines for the page's JavaScript, which
/// owns time, transport and storage (docs/browser.md).
///
/// The page's calls are handled as ``CoreReplay`` and the SDK's runner handle them: each wake-up
/// due before a call first, at its own deadline. So a page credits exactly what an app credits
/// for the same calls at the same times.
///
/// A class that reads its core only through the ``MeterOutlook`` each command returns: a value
/// copied itself whole in its initializer, and reading the core's properties from a class copies
/// the core (each copy tens of kilobytes of the module's code).
package final class BrowserInstance {
    package let settings: BrowserSettings
    private var core: MeterCore
    /// What the last command left (nil only before the first, which the initializer runs).
    private var outlook: MeterOutlook?
    private let market: MarketProfile
    /// With `nol_sdkDebug`, the call trace the census certifies from (docs/certification.md).
    private var tracer: CallTraceRecorder?
    /// What becomes of each of its pings' requests (B6).
    package var delivery = BrowserDelivery()

    /// Creates the instance; `lines` receives its first effects (the startup event).
    package init(_ settings: BrowserSettings, at time: MeterInstant, into lines: inout BrowserEffectLines) {
        self.settings = settings
        market = MarketProfile.forSFCode(settings.sfcode)
        let app = MeasuredApp(appID: settings.apid, appName: settings.instanceName, appVersion: "", market: market)
        let identifiers = SeededIdentifiers(seed: settings.seed.0, settings.seed.1)
        let identity = settings.optedOut
            ? PingIdentity(optedOut: true) : PingIdentity(optedOut: false, deviceID: settings.browserID)
        let sdkVersion = BrowserSettings.platformPrefix + "." + MeterRelease.version
        if settings.debug {
            tracer = CallTraceRecorder(
                session: identifiers.newID(), appID: settings.apid,
                settings: TracedArgument.arguments([.apid: settings.apid, .instanceName: settings.instanceName,
                                                    .sdkDebug: "debug", .sfcode: settings.sfcode]),
                sdkVersion: sdkVersion, flavor: settings.optedOut ? "optedOut" : "browser", at: time)
        }
        core = MeterCore(MeterCore.Settings(
            app: app, sdkVersion: sdkVersion,
            identifiers: identifiers.generators, identity: identity,
            durationPingInterval: settings.durationPingInterval, checkpointInterval: 5, playheadTick: 0,
            logLevel: settings.debug ? .debug : .critical))
        if let page = settings.overriddenPageSFCode {
            lines.log(.warning, "nlsQ: nol_sfcode \"\(page)\" is not used: the census measures \(settings.apid) as sfcode \"\(settings.sfcode)\" (\(market.name))")
        }
        run(.configReceived(ConfigAnswer(
            appid: settings.apid, enabled: settings.enabled, durationPingInterval: settings.durationPingInterval)),
            at: time, into: &lines)
        lines.wake(outlook?.partsWakeUp)
    }

    /// Handles `call` at `time`, after the wake-ups due by then.
    package func handle(_ call: BrowserCall, at time: MeterInstant, into lines: inout BrowserEffectLines) {
        advance(to: time, into: &lines)
        switch call {
        case .loadMetadata(let values):
            run(.loadMetadata(MetadataParser.parse(values, market: market)), at: time, into: &lines)
        case .setPlayheadPosition(let position?):
            run(.playhead(position), at: time, into: &lines)
        case .setPlayheadPosition(nil):
            break
        case .stop(let position):
            if let position { run(.playhead(position), at: time, into: &lines) }
            run(.stop, at: time, into: &lines)
        case .end(let position):
            if let position { run(.playhead(position), at: time, into: &lines) }
            run(.end, at: time, into: &lines)
        case .hidden:
            run(.appInBackground, at: time, into: &lines)
            // The page may not come back: what is traced goes now.
            if let batch = tracer?.flush() { lines.trace(batch) }
        case .visible:
            run(.appInForeground, at: time, into: &lines)
        case .leave:
            run(.release, at: time, into: &lines)
        }
        lines.wake(outlook?.partsWakeUp)
    }

    /// Handles the wake-ups due by `time` (the page's timer for the last requested one fired).
    package func wake(at time: MeterInstant, into lines: inout BrowserEffectLines) {
        advance(to: time, into: &lines)
        lines.wake(outlook?.partsWakeUp)
    }

    private func advance(to time: MeterInstant, into lines: inout BrowserEffectLines) {
        // Each wake-up moves the next one later; the bound only guards against a core that would not.
        for _ in 0..<100_000 {
            guard let due = outlook?.partsWakeUp, due <= time else { return }
            run(.wakeUp, at: due, into: &lines)
        }
    }

    private func run(_ command: MeterCommand, at time: MeterInstant, into lines: inout BrowserEffectLines) {
        var effects: [MeterEffect] = []
        let after = core.handle(command, at: time, into: &effects)
        outlook = after
        for effect in effects { lines.append(effect) }
        if tracer != nil, let batch = tracer?.record(command, at: time, effects: effects[...], state: after.state) {
            lines.trace(batch)
        }
    }
}
