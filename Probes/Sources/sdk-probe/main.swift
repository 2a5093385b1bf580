import AppMeter
import Foundation
import NielsenAppApi

// sdk-probe <probe> <count>: runs one probe of the SDK for callgrind (scripts/instruction-guard).
//
// - playhead, trackEvent, sendID3: `count` calls on the caller's thread, each made inside
//   `appmeter_probe_call`, the one function whose instructions callgrind collects
//   (`--toggle-collect`). The engine has taken a first call and parked until the next playhead
//   tick on a virtual clock that does not move, as between a real player's calls; every call
//   is then the steady state: a clock read, a lock, an append.
// - hour: `count` hours of VOD on a virtual clock (3,600 playheads, the duration pings, the
//   checkpoints, delivery to a transport that accepts everything), every thread; the guide takes
//   the difference between two counts, so the process's start cancels out.

/// A transport that accepts everything at once: the probe counts the SDK only.
struct AcceptingTransport: PingTransport {
    func send(_ request: TransportRequest) async -> TransportOutcome {
        if request.url.path.hasSuffix("/cgi-bin/cfg") {
            return .response(status: 200, retryAfter: nil, body: Data(#"{"enabled":true,"durationPingInterval":60}"#.utf8))
        }
        return .response(status: 200, retryAfter: nil, body: Data())
    }
}

let appInfo = ["appid": "P00000000-0000-4000-8000-000000000001", "appname": "probe", "appversion": "1",
               "nol_collectorURL": "http://127.0.0.1:9"]

func environment(_ clock: VirtualClock) -> MeterEnvironment {
    MeterEnvironment(clock: clock, transport: AcceptingTransport(), storage: InMemoryStorage(),
                     notificationCenter: nil, measuresAppRun: false)
}

/// The guide's sample event (the simplified API's ViewController), sent every second.
func sampleEvent(position: Int) -> [String: Any] {
    ["event": "playhead", "type": "content", "playheadPosition": String(position),
     "metadata": ["content": ["type": "content", "assetid": "probe-1", "program": "P", "title": "T", "length": "3600",
                              "airdate": "20261121 20:00:00", "isfullepisode": "y", "adloadtype": "2"],
                  "ad": [String: String](), "static": [String: String]()] as [String: Any]]
}

/// A slowdown `scripts/instruction-guard --self-test` plants in the measured call: this many turns
/// of a loop the optimizer keeps.
let plantedTurns = Int(ProcessInfo.processInfo.environment["APPMETER_PROBE_PLANT"] ?? "") ?? 0
nonisolated(unsafe) var plantSink = 0

/// The measured call: callgrind collects inside this function only.
@inline(never) @_silgen_name("appmeter_probe_call")
func probeCall(_ call: () -> Void) {
    call()
    for turn in 0..<plantedTurns { plantSink = plantSink &* 31 &+ turn }
}

let arguments = CommandLine.arguments
guard arguments.count == 3, let count = Int(arguments[2]), count > 0,
      ["playhead", "trackEvent", "sendID3", "hour"].contains(arguments[1]) else {
    FileHandle.standardError.write(Data("usage: sdk-probe playhead|trackEvent|sendID3|hour <count>\n".utf8))
    exit(64)
}

/// Runs the probe `name` `count` times.
func run(_ name: String, _ count: Int) async {
    switch arguments[1] {
    case "playhead":
        let clock = VirtualClock(start: 1_700_000_000)
        let api = NielsenAppApi(appInfo: appInfo, delegate: nil, environment: environment(clock))!
        api.play(["channelName": "probe"])
        api.loadMetadata(["type": "content", "assetid": "probe-1", "length": "0", "program": "P", "title": "T",
                          "airdate": "20261121 20:00:00", "isfullepisode": "y", "adloadtype": "2"])
        api.playheadPosition(0)
        await api.flush()
        var position: Int64 = 0
        while position < Int64(count) {
            position += 1
            probeCall { api.playheadPosition(position) }
        }
        await api.flush()
    case "trackEvent":
        let clock = VirtualClock(start: 1_700_000_000)
        let tracker = NielsenEventTracker(appInfo: appInfo, delegate: nil, environment: environment(clock))!
        tracker.trackEvent(sampleEvent(position: 0))
        await tracker.flush()
        // The events exist before the calls: the app's own work (setting the position) is not counted.
        let events = (1...count).map(sampleEvent(position:))
        for event in events { probeCall { tracker.trackEvent(event) } }
        await tracker.flush()
    case "sendID3":
        let clock = VirtualClock(start: 1_700_000_000)
        let api = NielsenAppApi(appInfo: appInfo, delegate: nil, environment: environment(clock))!
        api.play(["channelName": "probe"])
        api.loadMetadata(["type": "content", "channelName": "probe", "adModel": "1"])
        api.playheadPosition(0)
        await api.flush()
        let prefix = "www.nielsen.com/X100zdCIGeIlgZnkYj6UvQ==/R8WHe7pEBeqBhu8jTeXydg==/" + String(repeating: "A", count: 176) + "=/00000/"
        let tags = (0..<count).map { prefix + String(10_000 + $0 * 10) + "/00" }
        for tag in tags { probeCall { api.sendID3(tag) } }
        await api.flush()
    case "hour":
        for _ in 0..<count {
            let clock = VirtualClock(start: 1_700_000_000)
            let api = NielsenAppApi(appInfo: appInfo, delegate: nil, environment: environment(clock))!
            api.play(["channelName": "probe"])
            api.loadMetadata(["type": "content", "assetid": "probe-1", "length": "0", "program": "P", "title": "T",
                              "airdate": "20261121 20:00:00", "isfullepisode": "y", "adloadtype": "2"])
            await api.flush()
            for position in Int64(0)..<3_600 {
                clock.advance(by: 1)
                api.playheadPosition(position)
            }
            api.end()
            await api.flush()
        }
    default:
        fatalError("unknown probe \(name)")
    }
}

// Not top-level `await`: that parks the main thread in dispatch_main's sigsuspend, whose read-only
// signal mask valgrind 3.19 (Debian 12's) writes to and crashes on. The main thread waits on a
// semaphore instead, and the probe runs detached from it (the main actor is that thread).
let name = arguments[1]
let finished = DispatchSemaphore(value: 0)
Task.detached {
    await run(name, count)
    finished.signal()
}
finished.wait()
