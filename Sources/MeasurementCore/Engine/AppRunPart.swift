import MeterContract

/// The app's own measurement (API reference: "Application launch events and how long app was
/// running", "Application crash events"; docs/protocol.md §2d), kept by the first instance of a
/// process: a launch ping carrying the previous run's crash flag, then the foreground seconds of
/// the run, sent when the app goes to the background or the instance is released, checkpointed on
/// wake-ups so that a kill's seconds are recovered at the next launch.
struct AppRunPart: MeasurementPart {
    typealias Rule = ForegroundCrediting

    /// How often the core is woken while the app is in the foreground to checkpoint its run time.
    static let checkpointEvery: Double = 60

    /// The run measured, from the launch to the release.
    struct Run: CreditedSegment, Sendable {
        var start: MeterInstant
        var pending = PendingCredit()
    }

    /// The run, while this instance keeps it (the first of its process).
    private var run: Run?
    private var rule = Rule()
    private var foreground = true
    /// Checkpoints at every credited second: the core wakes the part only every minute.
    private let cadence = CreditCadence(durationPingInterval: reportEvery, checkpointInterval: 1, slot: .appRun)
    /// Run time goes out at the background, not on a cadence, except after half a day in the
    /// foreground (a kiosk, a signage app): one ping never credits more than the census takes
    /// (``WireLimits/maxCreditedSecondsPerPing``), even when a wake-up comes late.
    static let reportEvery = WireLimits.maxCreditedSecondsPerPing / 2

    /// When the core should wake to checkpoint the run time.
    @inline(__always)   // read after every command (``MeterCore/partsWakeUp``)
    var wakeUp: MeterInstant? {
        // The run last: testing the optional copied it, and this is read after every command.
        guard foreground, let since = rule.since?.time, run != nil else { return nil }
        return since + Self.checkpointEvery
    }

    /// The process launched: the launch ping, then the run's time is measured.
    mutating func launch(previousRunCrashed: Bool, _ context: PingContext, at time: MeterInstant, _ out: inout Emission) {
        guard run == nil else { return }
        let started = Run(start: time)
        run = started
        _ = rule.credit(Rule.Observation(time: time, foreground: foreground))
        out.log(.info, "app launched\(previousRunCrashed ? " after a crash" : "")")
        out.effects.append(.markRun(running: true))
        out.send(build(.view, started, credited: 0, crashed: previousRunCrashed, context, at: time, final: false, id: context.newPingID()))
    }

    /// A wake-up: checkpoints the run time so far.
    mutating func tick(_ context: PingContext, at time: MeterInstant, _ out: inout Emission) {
        credit(at: time, context, &out)
    }

    /// The app went to the background (the run time so far goes out; the run is clean so far) or
    /// came back.
    mutating func setForeground(_ inForeground: Bool, _ context: PingContext, at time: MeterInstant, _ out: inout Emission) {
        guard run != nil else { return }
        credit(at: time, context, &out)
        foreground = inForeground
        _ = rule.credit(Rule.Observation(time: time, foreground: inForeground))
        if inForeground {
            out.effects.append(.markRun(running: true))
        } else {
            send(context, at: time, final: false, &out)
            out.effects.append(.markRun(running: false))
        }
    }

    mutating func reportPending(_ context: PingContext, at time: MeterInstant, _ out: inout Emission) {
        guard run != nil else { return }
        credit(at: time, context, &out)
        send(context, at: time, final: false, &out)
    }

    /// The instance is released: the run ends cleanly with its last seconds.
    mutating func close(final: Bool, _ context: PingContext, at time: MeterInstant, _ out: inout Emission) {
        guard run != nil else { return }
        credit(at: time, context, &out)
        send(context, at: time, final: final, &out)
        if final {
            run = nil
            out.effects.append(.markRun(running: false))
        }
    }

    private mutating func credit(at time: MeterInstant, _ context: PingContext, _ out: inout Emission) {
        let credited = rule.credit(Rule.Observation(time: time, foreground: foreground))
        guard var current = run, credited > 0 else { return }
        out.credit(AssetKey(.app, context.app.appName), credited)
        out.settle(credited, of: &current, cadence, context, at: time) {
            build(.duration, $0, credited: $1, crashed: false, context, at: time, final: $3, id: $2)
        }
        run = consume current
    }

    private mutating func send(_ context: PingContext, at time: MeterInstant, final: Bool, _ out: inout Emission) {
        guard var current = run, current.pending.seconds > 0 || final else { return }
        out.sendPending(of: &current, final: final, cadence, context, at: time) {
            build(.duration, $0, credited: $1, crashed: false, context, at: time, final: $3, id: $2)
        }
        run = consume current
    }

    private func build(
        _ kind: PingKind, _ run: Run, credited: Int64, crashed: Bool, _ context: PingContext, at time: MeterInstant,
        final: Bool, id: String
    ) -> Ping {
        let identity = context.identity
        var list = PingFieldList()
        list.add(.product, WireProduct.app.rawValue)
        list.addFirstPartyAndVendor(identity)
        list.addAppAndDevice(context)
        list.add(.pingType, kind.wireValue)
        list.add(.sdkVersion, context.sdkVersion)
        list.add(.creditedSeconds, String(credited))
        list.add(.subProduct, WireProduct.app.rawValue)
        list.add(.appVersion, context.app.appVersion)
        list.add(.assetID, context.app.appName)
        list.add(.segmentStart, String(run.start.unixSeconds))
        list.add(.sessionID, context.sessionID ?? "")
        list.add(.createdAt, String(time.unixSeconds))
        list.add(.userOptOut, identity.optedOut ? "true" : "")
        list.add(.crash, kind == .view ? (crashed ? "1" : "0") : "")
        list.add(.durationType, (kind == .view ? DurationType.view : final ? .final : .interim).rawValue)
        list.add(.pingID, id)
        return Ping(id: id, kind: kind, assetKind: .app, assetID: context.app.appName, creditedSeconds: credited,
                    createdAt: time.secondsSince1970, parameters: list.parameters)
    }
}
