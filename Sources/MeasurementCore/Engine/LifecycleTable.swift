/// The four states of an SDK instance (iOS SDK API Reference, "Life cycle of SDK instance"),
/// and the Disabled state the census's kill switch puts an instance in, which the app cannot leave.
public enum LifecycleState: String, Sendable, CaseIterable {
    /// Created with plain `init()`: every call is ignored.
    case initial
    /// Initialised and waiting for `play` / `loadMetadata`.
    case idle
    /// Measuring.
    case processing
    /// Turned off by `appDisableApi = true`.
    case disabled
    /// Turned off by the census for this appid (config `enabled: false`): `appDisableApi = false`
    /// cannot turn it back on (docs/decisions.md L6).
    case disabledByCensus
}

/// The API calls that drive the lifecycle.
public enum LifecycleCall: String, Sendable, CaseIterable {
    /// `play(_:)`.
    case play
    /// `loadMetadata(_:)`.
    case loadMetadata
    /// `playheadPosition(_:)`.
    case playheadPosition
    /// `sendID3(_:)` with a Nielsen tag.
    case sendID3
    /// `stop()`.
    case stop
    /// `end()`.
    case end
    /// `appDisableApi = true`.
    case disableAPI
    /// `appDisableApi = false`.
    case enableAPI
    /// `userOptOut("nielsenappsdk://1")`.
    case userOptOut
    /// `userOptOut("nielsenappsdk://0")`.
    case userOptIn
    /// The census config said `enabled: false` (not an API call: the server-side kill switch).
    case censusDisable
}

/// The finite-state-machine table, as data. A nil cell means the call is not expected in that state:
/// it is ignored, logged at WARN and counted.
///
/// It follows the table in the API reference, with a row and a column for the census's
/// kill switch (`censusDisable`, `disabledByCensus`), and these documented exceptions
/// (docs/decisions.md L1–L3d): `loadMetadata` is accepted while processing (every documented ad
/// sequence loads ad and content metadata back to back); `appDisableApi = true` works while
/// processing; `userOptOut` never changes the state (since API 5.1 measurement goes on, flagged);
/// `play` while processing starts a new viewing session (Italy); a playhead in Idle resumes what
/// `stop` closed (Ireland) and `end` in Idle ends the content `stop` closed (Poland) — those two
/// only when there is something to resume or end, which the core checks.
package enum LifecycleTable {
    /// `table[call][state]` is the next state, or nil when the call is ignored.
    package static let table: [LifecycleCall: [LifecycleState: LifecycleState]] = [
        .play: [.idle: .processing, .processing: .processing],
        .loadMetadata: [.idle: .processing, .processing: .processing],
        .playheadPosition: [.idle: .processing, .processing: .processing],
        .sendID3: [.processing: .processing],
        .stop: [.processing: .idle],
        .end: [.idle: .idle, .processing: .idle],
        .disableAPI: [.idle: .disabled, .processing: .disabled],
        .enableAPI: [.disabled: .idle],
        .userOptOut: [.idle: .idle, .processing: .processing, .disabled: .disabled, .disabledByCensus: .disabledByCensus],
        .userOptIn: [.idle: .idle, .processing: .processing, .disabled: .disabled, .disabledByCensus: .disabledByCensus],
        .censusDisable: [.idle: .disabledByCensus, .processing: .disabledByCensus, .disabled: .disabledByCensus,
                         .disabledByCensus: .disabledByCensus],
    ]

    /// The state after `call` in `state`, or nil when the call is not expected there: ``table``
    /// as a switch, which every command asks. The dictionaries hash their keys' raw Strings (two
    /// hashes per playhead), and building them cost the browser's engine kilobytes (docs/browser.md,
    /// Size); LifecycleTableTests holds the switch equal to ``table`` cell by cell.
    package static func next(after call: LifecycleCall, in state: LifecycleState) -> LifecycleState? {
        switch (call, state) {
        case (.play, .idle), (.play, .processing), (.loadMetadata, .idle), (.loadMetadata, .processing),
             (.playheadPosition, .idle), (.playheadPosition, .processing), (.sendID3, .processing):
            .processing
        case (.stop, .processing), (.end, .idle), (.end, .processing), (.enableAPI, .disabled):
            .idle
        case (.disableAPI, .idle), (.disableAPI, .processing):
            .disabled
        case (.userOptOut, .initial), (.userOptIn, .initial), (.censusDisable, .initial):
            nil
        case (.userOptOut, _), (.userOptIn, _):
            state
        case (.censusDisable, _):
            .disabledByCensus
        default:
            nil
        }
    }

    /// Why a call was ignored, in words an integrator can act on.
    package static func ignoredReason(for call: LifecycleCall, in state: LifecycleState) -> String {
        switch (call, state) {
        case (_, .initial):
            "\(call.rawValue) ignored: the instance was created with init() instead of init(appInfo:delegate:)"
        case (_, .disabled):
            "\(call.rawValue) ignored: the SDK is disabled (appDisableApi is true)"
        case (.enableAPI, .disabledByCensus):
            "appDisableApi = false ignored: the census disabled measurement for this appid"
        case (_, .disabledByCensus):
            "\(call.rawValue) ignored: the census disabled measurement for this appid"
        case (.stop, .idle):
            "stop ignored: nothing is being measured (Idle)"
        case (.sendID3, .idle):
            "sendID3 ignored in Idle: after stop or end, call play and loadMetadata before sending tags"
        case (.enableAPI, _):
            "appDisableApi = false ignored: the SDK is not disabled"
        default:
            "\(call.rawValue) is not expected in state \(state.rawValue)"
        }
    }
}

extension LifecycleCall {
    /// The index of the case in `allCases`, without comparing raw Strings.
    package var ordinal: Int {
        switch self {
        case .play: 0
        case .loadMetadata: 1
        case .playheadPosition: 2
        case .sendID3: 3
        case .stop: 4
        case .end: 5
        case .disableAPI: 6
        case .enableAPI: 7
        case .userOptOut: 8
        case .userOptIn: 9
        case .censusDisable: 10
        }
    }
}

extension LifecycleState {
    /// The index of the case in `allCases`, without comparing raw Strings.
    package var ordinal: Int {
        switch self {
        case .initial: 0
        case .idle: 1
        case .processing: 2
        case .disabled: 3
        case .disabledByCensus: 4
        }
    }
}
