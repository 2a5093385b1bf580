import AppMeter
import Foundation
import MeterWire
import NielsenAppApi

// sdk-probe <probe> <count>: runs one probe of the SDK for callgrind (scripts/instruction-guard).
//
// - playhead, trackEvent, sendID3: `count` calls on the caller's thread, each made inside
//   `appmeter_probe_call`, the one function whose instructions callgrind collects
//   (`--toggle-collect`). The engine has taken a first call and parked until the next playhead
//   tick on a virtual clock that does not move, as between a real player's calls; every call
//   is then the steady state: a clock read, a lock, an append.
// - pingQuery: the census's read of a ~900-byte DCR ping (`PingQuery.parse` and the fields it
//   stores), `count` times inside `appmeter_probe_call`: the wire contract both sides share.
// - hour: `count` hours of VOD on one instance and a virtual clock, each a new asset (3,600
//   playheads, the duration pings, the checkpoints, delivery to a transport that accepts
//   everything), every thread; the guard takes the difference between two counts, so the
//   process's and the instance's start cancel out.
// - instances: `count` live instances, each having played a minute; prints the process's resident
//   and anonymous memory before and after (docs/performance.md, issue 49's memory row).

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

/// A standard-API instance on `clock`, playing.
func playingAPI(_ clock: VirtualClock) -> NielsenAppApi {
    let api = NielsenAppApi(appInfo: appInfo, delegate: nil, environment: environment(clock))!
    api.play(["channelName": "probe"])
    return api
}

/// VOD content metadata for the asset `id`.
func content(_ id: String) -> [String: String] {
    ["type": "content", "assetid": id, "length": "0", "program": "P", "title": "T",
     "airdate": "20261121 20:00:00", "isfullepisode": "y", "adloadtype": "2"]
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

/// The process's resident memory and the anonymous part of it (heap, stacks: not code or data
/// mapped from files), in kB, from /proc/self/smaps_rollup.
func memory() -> (resident: Int, anonymous: Int) {
    let text = FileHandle(forReadingAtPath: "/proc/self/smaps_rollup").map { String(decoding: $0.readDataToEndOfFile(), as: UTF8.self) } ?? ""
    func field(_ name: String) -> Int {
        let line = text.split(separator: "\n").first { $0.hasPrefix(name + ":") }
        return line.flatMap { Int($0.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") } ?? -1
    }
    return (field("Rss"), field("Anonymous"))
}

let arguments = CommandLine.arguments
guard arguments.count == 3, let count = Int(arguments[2]), count > 0,
      ["playhead", "trackEvent", "sendID3", "pingQuery", "hour", "instances"].contains(arguments[1]) else {
    FileHandle.standardError.write(Data("usage: sdk-probe playhead|trackEvent|sendID3|pingQuery|hour|instances <count>\n".utf8))
    exit(64)
}

/// Runs the probe `name` `count` times.
func run(_ name: String, _ count: Int) async {
    switch arguments[1] {
    case "playhead":
        let clock = VirtualClock(start: 1_700_000_000)
        let api = playingAPI(clock)
        api.loadMetadata(content("probe-1"))
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
        let api = playingAPI(clock)
        api.loadMetadata(["type": "content", "channelName": "probe", "adModel": "1"])
        api.playheadPosition(0)
        await api.flush()
        let prefix = "www.nielsen.com/X100zdCIGeIlgZnkYj6UvQ==/R8WHe7pEBeqBhu8jTeXydg==/" + String(repeating: "A", count: 176) + "=/00000/"
        let tags = (0..<count).map { prefix + String(10_000 + $0 * 10) + "/00" }
        for tag in tags { probeCall { api.sendID3(tag) } }
        await api.flush()
    case "pingQuery":
        let query = "prd=dcr&ci=&asn=Demo%20Channel&fp_id=0a1b2c3d4e5f60718293a4b5c6d7e8f9&fp_cr_tm=1700000000&fp_acc"
            + "_tm=1700000000&ve_id=bca320c1ed9c8176b2a1d80e8b7c4704791b2e07fa6af1936899d0e886819254&tl=Program"
            + "%20S3%2C%20EP1&prv=1&c6=vc%2C&cg=ProgramName&c13=asid%2CP12345678-ABCD-4EF0-9123-456789ABCDEF&c3"
            + "2=segA%2CNA&c33=segB%2CChannelName&c34=segC%2CPlayerName&c15=apn%2CBench&sup=1&c9=devid%2C334ad7"
            + "63911a9511e2d1a849c22bcbda94eadf4f7ba15ad6d1cc2a9855e461d5&enc=true&c1=nuid%2C334ad763911a9511e2"
            + "d1a849c22bcbda94eadf4f7ba15ad6d1cc2a9855e461d5&at=timer&rt=video&c16=sdkv%2Cal.1.0.0&c27=cln%2C6"
            + "0&st=dcr&c36=cref1%2C&c37=cref2%2C&c12=apv%2C1.0&sd=3600&c53=fef%2Cy&c54=oad%2C20171020%2010%3A0"
            + "5%3A00&c57=adldf%2C2&ai=vid345-67483&c3=st%2Cc&adidx=&c64=starttm%2C1700000001&c58=isLive%2Cfals"
            + "e&c59=sesid%2Cbench0session0000000000000000001&c61=createtm%2C1700000061&c63=pipMode%2C&uoo=&c71"
            + "=ottflg%2C0&c72=otttyp%2C&c44=progen%2C&sttype=&prov=&davty=1&c62=sendTime%2C1700000061&rnd=1700"
            + "000061000&pingid=bench-bench-1"
        let fields: [PingField] = [.product, .appID, .pingID, .pingType, .creditedSeconds, .assetID, .sessionID,
                                   .deviceID, .createdAt, .userOptOut, .mediaType, .assetClass, .assetName, .ottFlag]
        var read = 0
        for _ in 0..<count {
            probeCall {
                guard case .success(let parsed) = PingQuery.parse(query[...]) else { fatalError("the probe's ping must parse") }
                for field in fields { read &+= parsed.unprefixedValue(field)?.utf8.count ?? 0 }
            }
        }
        if read == 0 { print(read) }
    case "hour":
        // One instance, warm: each hour is a new asset viewed from its start to its end.
        let clock = VirtualClock(start: 1_700_000_000)
        let api = playingAPI(clock)
        await api.flush()
        for hour in 0..<count {
            api.loadMetadata(content("probe-\(hour)"))
            await api.flush()
            for position in Int64(0)..<3_600 {
                clock.advance(by: 1)
                api.playheadPosition(position)
            }
            api.end()
            await api.flush()
        }
    case "instances":
        // Not under callgrind: what `count` live instances add to the process's memory (Linux),
        // each with its own app id, queue and storage, having played a minute.
        let before = memory()
        var apis: [NielsenAppApi] = []
        for _ in 0..<count {
            let api = NielsenAppApi(
                appInfo: ["appid": "P" + UUID().uuidString, "appname": "probe", "appversion": "1", "nol_collectorURL": "http://127.0.0.1:9"],
                delegate: nil,
                environment: MeterEnvironment(transport: AcceptingTransport(), storage: InMemoryStorage(), notificationCenter: nil,
                                              measuresAppRun: false))!
            api.play(["channelName": "probe"])
            api.loadMetadata(content("probe-1"))
            for position in Int64(0)..<60 { api.playheadPosition(position) }
            apis.append(api)
        }
        for api in apis { await api.flush() }
        let after = memory()
        print("instances \(apis.count): resident \(before.resident) -> \(after.resident) kB, "
              + "anonymous (heap, stacks) \(before.anonymous) -> \(after.anonymous) kB")
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
