import AppMeter
import Benchmark
import MeterWire
import Foundation
import NielsenAppApi

/// A transport that accepts everything at once, so the benchmark measures the SDK only.
struct AcceptingTransport: PingTransport {
    func send(_ request: TransportRequest) async -> TransportOutcome {
        if request.url.path.hasSuffix("/cgi-bin/cfg") {
            return .response(status: 200, retryAfter: nil, body: Data(#"{"enabled":true,"durationPingInterval":60}"#.utf8))
        }
        return .response(status: 200, retryAfter: nil, body: Data())
    }
}

func makeAPI(clock: any MeterClock = SystemClock()) -> NielsenAppApi {
    let appInfo = ["appid": "P" + UUID().uuidString, "appname": "bench", "appversion": "1",
                   "nol_collectorURL": "http://127.0.0.1:9"]
    let environment = MeterEnvironment(clock: clock, transport: AcceptingTransport(), storage: InMemoryStorage(),
                                       notificationCenter: nil, measuresAppRun: false)
    let api = NielsenAppApi(appInfo: appInfo, delegate: nil, environment: environment)!
    api.play(["channelName": "bench"])
    api.loadMetadata(["type": "content", "assetid": "bench-1", "program": "P", "title": "T", "length": "0",
                      "airdate": "20261121 20:00:00", "isfullepisode": "y", "adloadtype": "2"])
    return api
}

/// User and system CPU of the whole process so far, in microseconds.
func cpuMicroseconds() -> Int64 {
    var usage = rusage()
    #if canImport(Glibc)
    getrusage(Int32(RUSAGE_SELF.rawValue), &usage)
    #else
    getrusage(RUSAGE_SELF, &usage)
    #endif
    func micros(_ time: timeval) -> Int64 { Int64(time.tv_sec) * 1_000_000 + Int64(time.tv_usec) }
    return micros(usage.ru_utime) + micros(usage.ru_stime)
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .instructions, .mallocCountTotal, .throughput],
        scalingFactor: .kilo, maxDuration: .seconds(3))

    // The caller-thread cost of playheadPosition: what every player pays every second.
    Benchmark("playheadPosition, caller thread") { benchmark in
        let api = makeAPI()
        var position = Int64(1_700_000_000)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            position += 1
            api.playheadPosition(position)
        }
        benchmark.stopMeasurement()
        await api.flush()
    }

    // One call per second in real players: each call finds the engine idle and wakes it. The
    // measurement covers only the call; the engine drains between calls.
    Benchmark("playheadPosition, waking an idle engine", configuration: .init(scalingFactor: .one)) { benchmark in
        let api = makeAPI()
        var position = Int64(1_700_000_000)
        await api.flush()
        for _ in benchmark.scaledIterations {
            position += 1
            benchmark.startMeasurement()
            api.playheadPosition(position)
            benchmark.stopMeasurement()
            await api.flush()
        }
    }

    // The same loop with nothing measured: the cost of start/stopMeasurement and of the engine
    // parking on other threads, to subtract from the benchmark above.
    Benchmark("baseline for the above: empty measurement", configuration: .init(scalingFactor: .one)) { benchmark in
        let api = makeAPI()
        await api.flush()
        for _ in benchmark.scaledIterations {
            benchmark.startMeasurement()
            benchmark.stopMeasurement()
            await api.flush()
        }
    }

    // The same calls including their processing by the engine (crediting, pings every 60 s).
    Benchmark("playheadPosition, processed") { benchmark in
        let api = makeAPI()
        var position = Int64(1_700_000_000)
        for _ in benchmark.scaledIterations {
            position += 1
            api.playheadPosition(position)
        }
        await api.flush()
    }

    // sendID3 with the ~249-character Nielsen owner string players pass from a KVO callback (every
    // ~10 s, or per timed-metadata item): the caller recognises the prefix and hands it over; the
    // engine parses it (decisions.md E12). The strings exist before the measurement, as the
    // player's do.
    Benchmark("sendID3, caller thread") { benchmark in
        let api = makeAPI()
        api.loadMetadata(["type": "content", "channelName": "bench", "adModel": "1"])
        let prefix = "www.nielsen.com/X100zdCIGeIlgZnkYj6UvQ==/R8WHe7pEBeqBhu8jTeXydg==/"
            + String(repeating: "A", count: 176) + "=/00000/"
        let tags = (0..<1_000).map { prefix + String(10_000 + $0 * 10) + "/00" }
        var index = 0
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            api.sendID3(tags[index])
            index = index == tags.count - 1 ? 0 : index + 1
        }
        benchmark.stopMeasurement()
        await api.flush()
    }

    // loadMetadata with a JSON string: handed over, parsed by the engine (decisions.md E12).
    Benchmark("loadMetadata JSON string, caller thread") { benchmark in
        let api = makeAPI()
        let json = #"{"type":"content","assetid":"bench-2","program":"P","title":"T","length":"3600","airdate":"20261121 20:00:00","isfullepisode":"y","adloadtype":"2","segB":"b","segC":"c"}"#
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            api.loadMetadata(json)
        }
        benchmark.stopMeasurement()
        await api.flush()
    }

    // One hour of VOD viewing as the engine processes it, on a virtual clock: 3,600 playheads, 60
    // duration pings, a checkpoint every 5 s, delivery to an accepting transport. Target: 10 ms CPU.
    Benchmark("one hour of viewing, processed", configuration: .init(
        metrics: [.wallClock, .cpuTotal, .instructions, .mallocCountTotal], scalingFactor: .one, maxDuration: .seconds(10))
    ) { benchmark in
        for _ in benchmark.scaledIterations {
            let clock = VirtualClock(start: 1_700_000_000)
            let api = makeAPI(clock: clock)
            await api.flush()
            benchmark.startMeasurement()
            for position in Int64(0)..<3_600 {
                clock.advance(by: 1)
                api.playheadPosition(position)
            }
            api.end()
            await api.flush()
            benchmark.stopMeasurement()
        }
    }

    // The same hour's CPU as the process's `getrusage` sees it (every thread: caller, engine,
    // delivery), over ten hours per sample: the CPU metric above counts in 10 ms ticks on Linux.
    Benchmark("one hour of viewing, CPU by getrusage", configuration: .init(
        metrics: [.custom("CPU per hour (µs)", useScalingFactor: false)], scalingFactor: .one, maxDuration: .seconds(20),
        maxIterations: 10)
    ) { benchmark in
        for _ in benchmark.scaledIterations {
            var total: Int64 = 0
            for _ in 0..<10 {
                let clock = VirtualClock(start: 1_700_000_000)
                let api = makeAPI(clock: clock)
                await api.flush()
                let before = cpuMicroseconds()
                for position in Int64(0)..<3_600 {
                    clock.advance(by: 1)
                    api.playheadPosition(position)
                }
                api.end()
                await api.flush()
                total += cpuMicroseconds() - before
            }
            benchmark.measurement(.custom("CPU per hour (µs)", useScalingFactor: false), Int(total / 10))
        }
    }

    // The simplified API: the guide's sample dictionary, mutated and sent every second.
    Benchmark("trackEvent, caller thread") { benchmark in
        let tracker = NielsenEventTracker(
            appInfo: ["appid": "P" + UUID().uuidString, "appname": "bench", "appversion": "1", "nol_collectorURL": "http://127.0.0.1:9"],
            delegate: nil,
            environment: MeterEnvironment(transport: AcceptingTransport(), storage: InMemoryStorage(), notificationCenter: nil,
                                          measuresAppRun: false))!
        var data: [String: Any] = [
            "event": "playhead", "type": "content",
            "metadata": ["content": ["type": "content", "assetid": "bench-1", "program": "P", "title": "T", "length": "3600",
                                     "airdate": "20261121 20:00:00", "isfullepisode": "y", "adloadtype": "2"],
                         "ad": [String: String](), "static": [String: String]()] as [String: Any],
        ]
        var position = 0
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            position += 1
            data["playheadPosition"] = String(position)
            tracker.trackEvent(data)
        }
        benchmark.stopMeasurement()
        await tracker.flush()
    }

    // The same call alone: the events built before the measurement, so the app's own copy of the
    // dictionary it mutates (the SDK holds the previous event until the engine reads it) is not
    // counted: what trackEvent itself costs.
    Benchmark("trackEvent, caller thread, events built ahead") { benchmark in
        let tracker = NielsenEventTracker(
            appInfo: ["appid": "P" + UUID().uuidString, "appname": "bench", "appversion": "1", "nol_collectorURL": "http://127.0.0.1:9"],
            delegate: nil,
            environment: MeterEnvironment(transport: AcceptingTransport(), storage: InMemoryStorage(), notificationCenter: nil,
                                          measuresAppRun: false))!
        let metadata: [String: Any] = [
            "content": ["type": "content", "assetid": "bench-1", "program": "P", "title": "T", "length": "3600",
                        "airdate": "20261121 20:00:00", "isfullepisode": "y", "adloadtype": "2"],
            "ad": [String: String](), "static": [String: String](),
        ]
        let events: [[String: Any]] = (0..<1_000).map {
            ["event": "playhead", "type": "content", "metadata": metadata, "playheadPosition": String($0)]
        }
        var index = 0
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            tracker.trackEvent(events[index])
            index = index == events.count - 1 ? 0 : index + 1
        }
        benchmark.stopMeasurement()
        await tracker.flush()
    }

    // The Nielsen owner string parser alone (MeterWire), as players and the census use it.
    Benchmark("NielsenID3Tag.parse") { benchmark in
        let tag = "www.nielsen.com/X100zdCIGeIlgZnkYj6UvQ==/R8WHe7pEBeqBhu8jTeXydg==/" + String(repeating: "A", count: 176) + "=/00000/46016/00"
        for _ in benchmark.scaledIterations {
            blackHole(NielsenID3Tag.parse(tag))
        }
    }

    // The census's read of a ping (MeterWire): a ~900-byte DCR query checked and located once,
    // then the fields it validates and stores decoded. The census does this for every request.
    Benchmark("PingQuery.parse and the stored fields, 900-byte DCR ping") { benchmark in
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
            + "000061000&pingid=bench-"
            + "bench-1"
        let fields: [PingField] = [.product, .appID, .pingID, .pingType, .creditedSeconds, .assetID, .sessionID,
                                   .deviceID, .createdAt, .userOptOut, .mediaType, .assetClass, .assetName, .ottFlag]
        for _ in benchmark.scaledIterations {
            guard case .success(let parsed) = PingQuery.parse(query[...]) else { fatalError("the bench ping must parse") }
            for field in fields { blackHole(parsed.unprefixedValue(field)) }
        }
    }

    // The same process with no instance: what the 100 instances add is the difference between the
    // two peaks (the Swift runtime, Foundation and the benchmark tool are most of either).
    Benchmark("resident baseline: no instance", configuration: .init(
        metrics: [.peakMemoryResident], scalingFactor: .one, maxDuration: .seconds(10), maxIterations: 5)
    ) { _ in
        blackHole(MeterEnvironment(transport: AcceptingTransport(), storage: InMemoryStorage(), notificationCenter: nil,
                                   measuresAppRun: false))
    }

    // Memory of live instances: 100 instances, each playing a minute of content, kept alive.
    Benchmark("100 live instances", configuration: .init(
        metrics: [.peakMemoryResident, .mallocCountTotal, .wallClock], scalingFactor: .one, maxDuration: .seconds(10), maxIterations: 5)
    ) { benchmark in
        var instances: [NielsenAppApi] = []
        for _ in 0..<100 {
            let api = makeAPI()
            for position in Int64(0)..<60 { api.playheadPosition(position) }
            instances.append(api)
        }
        for api in instances { await api.flush() }
        blackHole(instances)
    }
}
