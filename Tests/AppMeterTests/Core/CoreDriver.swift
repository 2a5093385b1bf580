import AppMeter
import Logging
import MeterWire

/// Drives a ``MeterCore`` directly, one command at a time on a virtual timeline, and describes
/// the effects compactly so that tests compare them exactly. No async machinery.
struct CoreDriver {
    static let appInfo = try! AppInfo.parse([
        "appid": "P12345678-ABCD-4EF0-9123-456789ABCDEF", "appname": "Core", "appversion": "1.0",
        "nol_collectorURL": "http://127.0.0.1:9",
    ]).get()
    static let openIdentity = PingIdentity(optedOut: false, deviceID: "dev")

    var core: MeterCore
    var time = MeterInstant(secondsSince1970: 1_700_000_000)

    init(durationPingInterval: Int64 = 60, checkpointInterval: Int64 = 5, playheadTick: Double = 0,
         logLevel: Logger.Level = .critical) {
        core = MeterCore(MeterCore.Settings(
            app: Self.appInfo.measuredApp, sdkVersion: "al.test", identifiers: CoreIdentifiers(SequentialIdentifierSource()),
            identity: Self.openIdentity, durationPingInterval: durationPingInterval,
            checkpointInterval: checkpointInterval, playheadTick: playheadTick, logLevel: MeterLogLevel(logLevel)))
    }

    /// Handles `command` `after` seconds and returns its effects, described.
    @discardableResult
    mutating func callAsFunction(_ command: MeterCommand, after seconds: Double = 0) -> [String] {
        effects(command, after: seconds).map(Self.describe)
    }

    /// Handles `command` `after` seconds and returns its effects.
    mutating func effects(_ command: MeterCommand, after seconds: Double = 0) -> [MeterEffect] {
        time = time + seconds
        var effects: [MeterEffect] = []
        core.handle(command, at: time, into: &effects)
        return effects
    }

    /// One playhead per second for each position; the descriptions of all their effects.
    @discardableResult
    mutating func playheads(_ positions: ClosedRange<Int64>) -> [String] {
        positions.flatMap { self(.playhead($0), after: 1) }
    }

    static func content(_ id: String = "vid1") -> MeterCommand {
        .loadMetadata(MetadataParser.parse(
            ["type": "content", "assetid": id, "program": "P", "title": "T", "length": "3600",
             "airdate": "20261121 20:00:00", "isfullepisode": "y", "adloadtype": "2"],
            market: appInfo.market))
    }

    static func ad(_ id: String, type: String = "preroll") -> MeterCommand {
        .loadMetadata(MetadataParser.parse(["type": type, "assetid": id], market: appInfo.market))
    }

    /// `enqueue view content/vid1 0 ping-1 uoo=`, `checkpoint duration content/vid1 5 ping-2`,
    /// `report 6`, `log warning …`, and the effect's name for the rest.
    static func describe(_ effect: MeterEffect) -> String {
        func ping(_ record: PingRecord) -> String {
            let ping = record.ping
            return "\(ping.kind) \(ping.assetKind.rawValue)/\(ping.assetID) \(ping.creditedSeconds) \(ping.id)"
        }
        switch effect {
        case .enqueue(let record, let slot):
            return "enqueue \(ping(record))\(slot != nil ? " replacing checkpoint" : "") uoo=\(record.ping["uoo"] ?? "?")"
        case .checkpoint(let record, _, _): return "checkpoint \(ping(record))"
        case .report(let code, _): return "report \(code.rawValue)"
        case .log(let level, let message): return "log \(level) \(message)"
        case .setLogLevel(let level): return "setLogLevel \(level)"
        case .pauseDelivery: return "pauseDelivery"
        case .resumeDelivery: return "resumeDelivery"
        case .deliverPromptly: return "deliverPromptly"
        case .persistOptOut(let optOut): return "persistOptOut \(optOut)"
        case .markRun(let running): return "markRun \(running)"
        }
    }
}
