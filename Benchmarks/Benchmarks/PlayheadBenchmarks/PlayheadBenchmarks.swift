import AppMeter
import Benchmark
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

func makeAPI() -> NielsenAppApi {
    let appInfo = ["appid": "P" + UUID().uuidString, "appname": "bench", "appversion": "1",
                   "nol_collectorURL": "http://127.0.0.1:9"]
    let api = NielsenAppApi(appInfo: appInfo, delegate: nil, environment: MeterEnvironment(transport: AcceptingTransport(), storage: InMemoryStorage()))!
    api.play(["channelName": "bench"])
    api.loadMetadata(["type": "content", "assetid": "bench-1", "program": "P", "title": "T", "length": "0",
                      "airdate": "20261121 20:00:00", "isfullepisode": "y", "adloadtype": "2"])
    return api
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

    // sendID3 parses the ~249-character Nielsen owner string on the caller's thread (players call
    // it from a KVO callback every ~10 s).
    Benchmark("sendID3, caller thread") { benchmark in
        let api = makeAPI()
        api.loadMetadata(["type": "content", "channelName": "bench", "adModel": "1"])
        let prefix = "www.nielsen.com/X100zdCIGeIlgZnkYj6UvQ==/R8WHe7pEBeqBhu8jTeXydg==/"
            + String(repeating: "A", count: 176) + "=/00000/"
        var offset = 10_000
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            offset += 10
            api.sendID3(prefix + String(offset) + "/00")
        }
        benchmark.stopMeasurement()
        await api.flush()
    }

    // loadMetadata parses JSON on the caller's thread, as documented: for comparison.
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
}
