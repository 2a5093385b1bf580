/// A part of one SDK instance's call trace, POSTed as JSON to ``WireRoute/trace`` by an app in a
/// development configuration (docs/protocol.md §2h): every API call in order, with its arguments
/// as the SDK read them, the lifecycle state after it, the events it raised and the pings it
/// built. The census certifies an integration from it (docs/certification.md).
public struct CallTraceBatch: Sendable, Equatable {
    /// The instance's trace session: one per SDK instance, from its creation to its release.
    public var session: String
    /// The instance's appid.
    public var appid: String
    /// The SDK version (`c16`'s `sdkv`).
    public var sdk: String
    /// Entries in call order; sequence numbers rise by one across a session's batches.
    public var entries: [CallTraceEntry]

    /// The most entries in one batch.
    public static let maxEntries = 200
    /// The largest body the census takes.
    public static let maxBodyBytes = 512 * 1024
    /// The longest session id or appid.
    public static let maxIdentifierLength = 64

    /// Creates a batch.
    public init(session: String, appid: String, sdk: String, entries: [CallTraceEntry]) {
        self.session = session
        self.appid = appid
        self.sdk = sdk
        self.entries = entries
    }

    /// What makes the batch unusable, if anything.
    public var problem: String? {
        for (name, value) in [("session", session), ("appid", appid), ("sdk", sdk)]
        where value.isEmpty || value.utf8.count > Self.maxIdentifierLength {
            return "trace '\(name)' must be 1 to \(Self.maxIdentifierLength) bytes"
        }
        guard !entries.isEmpty, entries.count <= Self.maxEntries else {
            return "a trace batch holds 1 to \(Self.maxEntries) entries"
        }
        for entry in entries {
            guard entry.seq >= 0 else { return "trace entry sequence numbers start at 0" }
            guard entry.time.isFinite, entry.time >= 0 else { return "trace entry \(entry.seq) has no valid time" }
            guard !entry.call.isEmpty, entry.call.utf8.count <= Self.maxIdentifierLength else {
                return "trace entry \(entry.seq) has no valid call name"
            }
        }
        return nil
    }
}

/// One API call (or outside event) as the SDK handled it.
public struct CallTraceEntry: Sendable, Equatable {
    /// The position in the session, from 0.
    public var seq: Int
    /// When the call was made, Unix seconds.
    public var time: Double
    /// The call (``TracedCall``'s raw values; a newer SDK may send names this census does not know).
    public var call: String
    /// The arguments as the SDK read them (identifiers as on the wire).
    public var args: [String: String]
    /// The lifecycle state after the call.
    public var state: String
    /// The events and errors the call raised.
    public var events: [TracedEvent]
    /// The pings the call built.
    public var pings: [TracedPing]

    /// Creates an entry.
    public init(
        seq: Int, time: Double, call: String, args: [String: String] = [:], state: String,
        events: [TracedEvent] = [], pings: [TracedPing] = []
    ) {
        self.seq = seq
        self.time = time
        self.call = call
        self.args = args
        self.state = state
        self.events = events
        self.pings = pings
    }

    /// The argument `name`, or "".
    public subscript(argument name: String) -> String { args[name] ?? "" }

    /// Whether this entry is the call `call`.
    public func `is`(_ call: TracedCall) -> Bool { self.call == call.rawValue }
}

/// The calls a trace names.
public enum TracedCall: String, Sendable, CaseIterable {
    case initialize = "init"
    case config, play, loadMetadata, playheadPosition, sendID3, stop, end, trackEvent, updateOTT
    case trackViewability, appDisableApi, debug, userOptOut, appInBackground, appInForeground, staticEnd
    case appLaunch, wakeUp, release, report, truncated
}

/// An event or error raised by a call.
public struct TracedEvent: Sendable, Equatable {
    /// The code (events 1…, errors 1…15 and 1001…).
    public var code: Int
    /// Whether it is an event (true) or an error.
    public var isEvent: Bool
    /// What the SDK said.
    public var text: String

    /// Creates an event entry.
    public init(code: Int, isEvent: Bool, text: String) {
        self.code = code
        self.isEvent = isEvent
        self.text = text
    }
}

/// A ping built by a call.
public struct TracedPing: Sendable, Equatable {
    /// The ping id (`pingid`): the census's stored ping of that id is this one.
    public var id: String
    /// The query as it goes on the wire, without the send time.
    public var query: String

    /// Creates a ping entry.
    public init(id: String, query: String) {
        self.id = id
        self.query = query
    }
}
