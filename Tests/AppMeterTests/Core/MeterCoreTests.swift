import AppMeter
import Logging
import MeterWire
import Testing

/// The measurement core without any async machinery: feed commands, compare effects.
@Suite struct MeterCoreTests {
    @Test func aViewPingCheckpointsThenTheDurationPingThatReplacesThem() {
        var core = CoreDriver()
        #expect(core(.play(channelName: "C")) == [])
        #expect(core(CoreDriver.content()) == [])
        #expect(core.playheads(0...12) == [
            "enqueue view content/vid1 0 ping-1 uoo=",
            "checkpoint duration content/vid1 5 ping-2",
            "checkpoint duration content/vid1 10 ping-2",
        ])
        // The ping closing the segment carries the checkpoint's id: the two are one ping to the census.
        #expect(core(.stop) == ["enqueue duration content/vid1 12 ping-2 replacing checkpoint uoo="])
        #expect(core.core.state == .idle)
        #expect(core.core.progress.creditedSeconds == [AssetKey(.content, "vid1"): 12])
        #expect(core.core.progress.pingsBuilt == 2)
    }

    @Test func durationPingsAtTheIntervalAndEndDeliversPromptly() {
        var core = CoreDriver(durationPingInterval: 3, checkpointInterval: 100)
        core(CoreDriver.content())
        #expect(core.playheads(0...7) == [
            "enqueue view content/vid1 0 ping-1 uoo=",
            "enqueue duration content/vid1 3 ping-2 replacing checkpoint uoo=",
            "enqueue duration content/vid1 3 ping-3 replacing checkpoint uoo=",
        ])
        #expect(core(.end) == ["enqueue duration content/vid1 1 ping-4 replacing checkpoint uoo=", "deliverPromptly"])
        // end forgot the reference and the view: the same asset starts again with a view ping.
        core(CoreDriver.content())
        #expect(core.playheads(5...6) == ["enqueue view content/vid1 0 ping-5 uoo="])
    }

    @Test func adsKeepTheContentReferenceAndAreCreditedAsAds() {
        var core = CoreDriver(checkpointInterval: 100)
        core(.play(channelName: nil))
        core(CoreDriver.content())
        core(CoreDriver.ad("pre1"))
        #expect(core.playheads(0...2) == ["enqueue view ad/pre1 0 ping-1 uoo="])
        #expect(core(.stop) == ["enqueue duration ad/pre1 2 ping-2 replacing checkpoint uoo="])
        core(CoreDriver.content())
        #expect(core.playheads(0...3) == ["enqueue view content/vid1 0 ping-3 uoo="])
        core(CoreDriver.ad("mid1", type: "midroll"))  // no stop before the midroll (Italy)
        core.playheads(0...1)
        core(.stop)
        core(CoreDriver.content())
        #expect(core.playheads(4...5) == [])     // resumes where it left off: 4 follows 3
        #expect(core.core.progress.creditedSeconds == [
            AssetKey(.ad, "pre1"): 2, AssetKey(.content, "vid1"): 5, AssetKey(.ad, "mid1"): 1,
        ])
    }

    @Test func theCensusKillSwitchClosesWhatIsOpenAndTheAppCannotUndoIt() {
        var core = CoreDriver()
        core(CoreDriver.content())
        core.playheads(0...7)
        #expect(core(.configReceived(ConfigAnswer(enabled: false, durationPingInterval: 60))) == [
            "enqueue duration content/vid1 7 ping-2 replacing checkpoint uoo=", "report 6",
        ])
        #expect(core.core.state == .disabledByCensus)
        #expect(core(.setDisabled(false)) == [])
        #expect(core(.playhead(8)) == [])
        #expect(core.core.state == .disabledByCensus)
        #expect(core.core.progress.ignoredCalls == 2)
    }

    @Test func aValidConfigReportsStartupAndSetsTheInterval() {
        var core = CoreDriver(checkpointInterval: 100)
        #expect(core(.configReceived(ConfigAnswer(enabled: true, durationPingInterval: 2))) == ["report 2001"])
        core(CoreDriver.content())
        #expect(core.playheads(0...2) == [
            "enqueue view content/vid1 0 ping-1 uoo=", "enqueue duration content/vid1 2 ping-2 replacing checkpoint uoo=",
        ])
    }

    @Test func anOptOutSendsTheCreditSoFarUnderTheOldChoiceAndIsPersisted() {
        var core = CoreDriver(checkpointInterval: 100)
        core(CoreDriver.content())
        core.playheads(0...4)
        let out = PrivacyChoice(optOut: true, identity: PingIdentity(optedOut: true), persists: true)
        #expect(core(.setOptOut(out)) == [
            "enqueue duration content/vid1 4 ping-2 replacing checkpoint uoo=", "persistOptOut true",
        ])
        core.playheads(5...6)
        #expect(core(.stop) == ["enqueue duration content/vid1 2 ping-3 replacing checkpoint uoo=true"])
        let noID = PrivacyChoice(optOut: false, identity: PingIdentity(optedOut: true), persists: false)
        #expect(core(.setOptOut(noID)) == [])  // noID stores nothing
    }

    @Test func loadMetadataProblemsAreReportedOnlyWhenTheCallIsTaken() {
        var core = CoreDriver()
        let incomplete = MeterCommand.loadMetadata(MetadataParser.parse(["type": "content", "assetid": "a"],
                                                                        market: CoreDriver.appInfo.market))
        #expect(core(incomplete) == Array(repeating: "report 1004", count: 6))
        core(.setDisabled(true))
        #expect(core(incomplete) == [])
        #expect(core.core.progress.ignoredCalls == 1)
    }

    @Test func inIdlePlayheadsResumeAndEndEndsOnlyWhatAStopClosed() {
        var fresh = CoreDriver()
        #expect(fresh(.playhead(0)) == [])
        #expect(fresh(.end) == [])
        #expect(fresh.core.progress.ignoredCalls == 2)
        #expect(fresh.core.state == .idle)

        var core = CoreDriver(checkpointInterval: 100)
        core(CoreDriver.content())
        core.playheads(0...3)
        #expect(core(.stop) == ["enqueue duration content/vid1 3 ping-2 replacing checkpoint uoo="])
        // Resumed "for the new viewing session" (L3c): a view ping again, credit goes on.
        #expect(core.playheads(4...6) == ["enqueue view content/vid1 0 ping-3 uoo="])
        #expect(core.core.state == .processing)
        #expect(core(.stop) == ["enqueue duration content/vid1 3 ping-4 replacing checkpoint uoo="])
        #expect(core(.end) == ["enqueue duration content/vid1 0 ping-5 uoo=", "deliverPromptly"])
        #expect(core(.end) == [])                          // nothing left to end
        #expect(core.core.progress.ignoredCalls == 1)
    }

    @Test func playWhileMeasuringClosesTheStreamAndStartsANewSession() {
        var core = CoreDriver(checkpointInterval: 100)
        core(.play(channelName: "A"))
        core(CoreDriver.content())
        core.playheads(0...4)
        #expect(core(.play(channelName: "B")) == ["enqueue duration content/vid1 4 ping-2 replacing checkpoint uoo="])
        #expect(core.core.state == .processing)
        core(CoreDriver.content("vid2"))
        let view = core.effects(.playhead(0), after: 1)
        guard case .enqueue(let record, _)? = view.first else { Issue.record("no view ping"); return }
        #expect(record.ping["asn"] == "B")
        #expect(record.ping["c59"] == "sesid,ses2")
    }

    @Test func warningsAndDebugLinesAreLoggedOnlyAtTheirLevel() {
        var quiet = CoreDriver()
        #expect(quiet(.playhead(1)) == [])
        var verbose = CoreDriver(logLevel: .debug)
        #expect(verbose(.stop) == ["log warning stop ignored: nothing is being measured (Idle)"])
        verbose(CoreDriver.content())
        let playhead = verbose(.playhead(0))
        #expect(playhead.first == "log info playheadPosition 0")    // INFO: every call and its data
        #expect(playhead.contains { $0.hasPrefix("log debug ping built") })
        var debugOn = CoreDriver()
        #expect(debugOn(.setDebug(true)) == ["setLogLevel debug"])
        #expect(debugOn(.setDebug(false)) == ["setLogLevel critical"])
    }

    @Test func theCoreAsksToBeWokenOneTickAfterTheLastPlayheadWhileMeasuring() {
        var core = CoreDriver(playheadTick: 1)
        #expect(core.core.requestedWakeUp == nil)
        core(CoreDriver.content())
        #expect(core.core.requestedWakeUp == nil)         // no playhead yet: nothing to collect
        core(.playhead(0), after: 1)
        let first = core.time
        #expect(core.core.requestedWakeUp == first + 1)
        core(.wakeUp, after: 0.5)                        // early: still wanted
        #expect(core.core.requestedWakeUp == first + 1)
        core(.wakeUp, after: 0.5)                        // no playhead since: stop ticking
        #expect(core.core.requestedWakeUp == nil)
        core(.playhead(1), after: 1)
        #expect(core.core.requestedWakeUp == core.time + 1)
        core(.stop)
        #expect(core.core.requestedWakeUp == nil)         // idle: no wake-ups
    }

    /// The app run's wake-up is a minute away: playheads must not wait for it (they did, and a
    /// killed player lost up to a minute). They wait only for the playhead tick.
    @Test func playheadsWaitOnlyForThePlayheadTick() {
        var core = CoreDriver(playheadTick: 1)
        core(.appLaunched(previousRunCrashed: false))
        core(CoreDriver.content())
        #expect(core.core.requestedWakeUp == core.time + 60)
        #expect(!core.core.playheadsMayWait)
        core(.playhead(0), after: 1)
        #expect(core.core.requestedWakeUp == core.time + 1)
        #expect(core.core.playheadsMayWait)
        var immediate = CoreDriver(playheadTick: 0)
        immediate(CoreDriver.content())
        immediate(.playhead(0))
        #expect(!immediate.core.playheadsMayWait)
    }

    /// Every cell of the lifecycle table, the census's row and column included, driven through the
    /// core alone.
    @Test(arguments: LifecycleCall.allCases.flatMap { call in
        [LifecycleState.idle, .processing, .disabled, .disabledByCensus].map { (call, $0) }
    })
    func lifecycleCell(_ call: LifecycleCall, _ state: LifecycleState) {
        var core = CoreDriver()
        switch state {
        case .initial: break
        case .idle:                                      // after a stop: something to resume or end
            core(CoreDriver.content())
            core(.playhead(0), after: 1)
            core(.stop)
        case .processing:
            core(.loadMetadata(MetadataParser.parse(Fixtures.content().merging(["adModel": "1"]) { $1 },
                                                    market: CoreDriver.appInfo.market)))
        case .disabled: core(.setDisabled(true))
        case .disabledByCensus: core(.configReceived(ConfigAnswer(enabled: false, durationPingInterval: 60)))
        }
        #expect(core.core.state == state)
        let ignoredBefore = core.core.progress.ignoredCalls
        let choice = { (out: Bool) in PrivacyChoice(optOut: out, identity: PingIdentity(optedOut: out), persists: true) }
        let command: MeterCommand = switch call {
        case .play: .play(channelName: nil)
        case .loadMetadata: CoreDriver.content("other")
        case .playheadPosition: .playhead(0)
        case .sendID3: .id3(try! NielsenID3Tag.parse(Fixtures.sampleTag).get())
        case .stop: .stop
        case .end: .end
        case .disableAPI: .setDisabled(true)
        case .enableAPI: .setDisabled(false)
        case .userOptOut: .setOptOut(choice(true))
        case .userOptIn: .setOptOut(choice(false))
        case .censusDisable: .configReceived(ConfigAnswer(enabled: false, durationPingInterval: 60))
        }
        core(command)
        let expected = LifecycleTableTests.documented[call]![state]!
        #expect(core.core.state == (expected ?? state), "\(call) in \(state)")
        #expect(core.core.progress.ignoredCalls == ignoredBefore + (expected == nil ? 1 : 0), "\(call) in \(state)")
    }
}
