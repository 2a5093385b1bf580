import AppMeter
import NielsenAppApi
import Testing

/// Walks every cell of the finite-state-machine table through the public API.
@Suite struct LifecycleTableTests {
    /// The table of the API reference, transcribed independently of the engine's copy, with
    /// the documented decisions marked D (the L entries of docs/decisions.md) and the census kill switch's row and
    /// column (L6). nil: the call is not expected. Idle is entered by a `stop`, so that a playhead
    /// has something to resume (L3c) and an `end` something to end (L3d).
    static let documented: [LifecycleCall: [LifecycleState: LifecycleState?]] = [
        //                     Initial        Idle                 Processing                      Disabled                   Disabled by census
        .play:             [.initial: nil, .idle: .processing, .processing: .processing /*D*/, .disabled: nil,            .disabledByCensus: nil],
        .loadMetadata:     [.initial: nil, .idle: .processing, .processing: .processing /*D*/, .disabled: nil,            .disabledByCensus: nil],
        .playheadPosition: [.initial: nil, .idle: .processing /*D*/, .processing: .processing, .disabled: nil,            .disabledByCensus: nil],
        .sendID3:          [.initial: nil, .idle: nil,         .processing: .processing,       .disabled: nil,            .disabledByCensus: nil],
        .stop:             [.initial: nil, .idle: nil,         .processing: .idle,             .disabled: nil,            .disabledByCensus: nil],
        .end:              [.initial: nil, .idle: .idle /*D*/, .processing: .idle,             .disabled: nil,            .disabledByCensus: nil],
        .disableAPI:       [.initial: nil, .idle: .disabled,   .processing: .disabled /*D*/,   .disabled: nil,            .disabledByCensus: nil],
        .enableAPI:        [.initial: nil, .idle: nil,         .processing: nil,               .disabled: .idle,          .disabledByCensus: nil],
        // The table moves userOptOut YES Processing→Idle and NO Idle→Processing; since API 5.1
        // measurement goes on flagged, so the choice never changes the state (D).
        .userOptOut:       [.initial: nil, .idle: .idle,       .processing: .processing /*D*/, .disabled: .disabled /*D*/, .disabledByCensus: .disabledByCensus],
        .userOptIn:        [.initial: nil, .idle: .idle /*D*/, .processing: .processing,       .disabled: .disabled /*D*/, .disabledByCensus: .disabledByCensus],
        .censusDisable:    [.initial: nil, .idle: .disabledByCensus, .processing: .disabledByCensus, .disabled: .disabledByCensus,
                            .disabledByCensus: .disabledByCensus],
    ]

    /// Every cell an app can reach through the public API (the census's row is walked by
    /// `MeterCoreTests`).
    static let cells: [(LifecycleCall, LifecycleState)] = LifecycleCall.allCases.filter { $0 != .censusDisable }.flatMap { call in
        [LifecycleState.idle, .processing, .disabled, .disabledByCensus].map { (call, $0) }
    }

    @Test(arguments: cells)
    func cell(_ call: LifecycleCall, _ state: LifecycleState) async {
        let meter = MeterHarness { transport in
            if state == .disabledByCensus { transport.scriptConfig([], then: RecordingTransport.config(enabled: false)) }
        }
        await meter.api.waitUntilConfigured()
        switch state {
        case .initial, .disabledByCensus: break
        case .idle:
            meter.api.loadMetadata(Fixtures.content())
            meter.play(0...1)
            meter.api.stop()
        case .processing:
            meter.api.play()
            meter.api.loadMetadata(Fixtures.content().merging(["adModel": "1"]) { $1 })   // DCR and DTVR
        case .disabled:
            meter.api.appDisableApi = true
        }
        await meter.api.flush()
        #expect(meter.snapshot.state == state)
        let ignoredBefore = meter.snapshot.ignoredCalls

        switch call {
        case .play: meter.api.play()
        case .loadMetadata: meter.api.loadMetadata(Fixtures.content("other"))
        case .playheadPosition: meter.api.playheadPosition(0)
        case .sendID3: meter.api.sendID3(Fixtures.sampleTag)
        case .stop: meter.api.stop()
        case .end: meter.api.end()
        case .disableAPI: meter.api.appDisableApi = true
        case .enableAPI: meter.api.appDisableApi = false
        case .userOptOut: #expect(meter.api.userOptOut("nielsenappsdk://1"))
        case .userOptIn: #expect(meter.api.userOptOut("nielsenappsdk://0"))
        case .censusDisable: Issue.record("not an API call")
        }
        await meter.api.flush()

        let expected = Self.documented[call]![state]!
        #expect(meter.snapshot.state == (expected ?? state), "\(call) in \(state)")
        #expect(meter.snapshot.ignoredCalls == ignoredBefore + (expected == nil ? 1 : 0), "\(call) in \(state)")
        #expect(LifecycleTable.next(after: call, in: state) == expected)
    }

    @Test func theFastLookupAnswersEveryCellAsTheTableDoes() {
        #expect(LifecycleCall.allCases.map(\.ordinal) == Array(LifecycleCall.allCases.indices))
        #expect(LifecycleState.allCases.map(\.ordinal) == Array(LifecycleState.allCases.indices))
        for call in LifecycleCall.allCases {
            for state in LifecycleState.allCases {
                #expect(LifecycleTable.next(after: call, in: state) == LifecycleTable.table[call]?[state], "\(call) in \(state)")
            }
        }
    }

    @Test func anInstanceMadeWithPlainInitIgnoresEverythingSilently() async {
        let api = NielsenAppApi()
        api.play()
        api.loadMetadata(Fixtures.content())
        api.playheadPosition(1)
        api.stop()
        api.end()
        api.appDisableApi = true
        #expect(api.userOptOut("nielsenappsdk://1") == false)
        await api.flush()
        #expect(api.meter == nil)
        #expect(api.optOutURL == "")
        #expect(api.lastErrorDict == nil)
        #expect(api.lastEventDict == nil)
        #expect(api.appDisableApi == false)
        for call in LifecycleCall.allCases {
            #expect(LifecycleTable.next(after: call, in: .initial) == nil)
        }
    }

    @Test func nothingIsMeasuredWhileDisabled() async {
        let meter = MeterHarness()
        meter.api.play()
        meter.api.loadMetadata(Fixtures.content())
        meter.play(0...30)
        meter.api.appDisableApi = true       // closes the segment: 30 seconds reported
        meter.api.loadMetadata(Fixtures.content())
        meter.play(31...60)
        meter.api.appDisableApi = false
        meter.api.loadMetadata(Fixtures.content())
        meter.play(61...70)
        meter.api.end()
        #expect(meter.api.appDisableApi == false)
        #expect(await meter.creditedOnTheWire() == ["content/vid345-67483": 30 + 9])
    }
}
