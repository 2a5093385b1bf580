import AppMeter
import ArgumentParser
import Foundation
import NielsenAppApi
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Plays one VOD asset through the documented API against a collector, in real time or faster:
/// a test rig for integrations, soak runs and the kill test (which SIGKILLs it mid-play).
struct PlayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "play",
        abstract: "Play a VOD asset through the SDK against a collector, printing each playhead reported.")

    @Option(help: "The collector base URL (nol_collectorURL).") var collector: String
    @Option(help: "The appid (P or T + GUID).") var appid = "P00000000-0000-4000-8000-00000000D1A7"
    @Option(help: "The asset id.") var asset = "play-asset"
    @Option(help: "Seconds of content to play.") var seconds: Int64 = 60
    @Option(help: "Real seconds between playheads (1 is real time).") var interval: Double = 1
    @Option(help: "The SDK's storage folder (nol_storageDir): queued pings and checkpoints live there.")
    var storage: String
    @Flag(help: "Only start the SDK, deliver what a previous run left, and exit.") var recoverOnly = false

    func validate() throws {
        guard let url = URL(string: collector), ["http", "https"].contains(url.scheme), url.host != nil else {
            throw ValidationError("--collector \(collector) is not an http(s) URL")
        }
        guard seconds >= 0 else { throw ValidationError("--seconds must be 0 or more") }
        guard interval >= 0, interval.isFinite else { throw ValidationError("--interval must be 0 or more seconds") }
    }

    func run() async throws {
        try await Self.checkAnswers(collector)
        let appInfo = ["appid": appid, "appname": "meter play", "appversion": MeterInstance.version, "sfcode": "dcr",
                       "nol_collectorURL": collector, "nol_storageDir": storage]
        // Faster than real time, playheads are processed at once so a kill loses no more than in
        // a real-time run.
        let environment = MeterEnvironment(playheadProcessingDelay: interval < 1 ? 0 : 1)
        guard let api = NielsenAppApi(appInfo: appInfo, delegate: nil, environment: environment) else {
            throw MeterFailure(.usage, "the SDK refused the appInfo: --appid \(appid) is not P or T followed by a GUID")
        }
        await api.waitUntilConfigured()
        if recoverOnly {
            await api.flush()
            let diagnostics = api.meter?.diagnostics.dictionary ?? [:]
            print("delivered backlog: \(diagnostics.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " "))")
            return
        }
        api.play(["channelName": "meter play"])
        api.loadMetadata(["type": "content", "assetid": asset, "program": "meter play", "title": asset,
                          "length": String(seconds), "airdate": "20261121 20:00:00", "isfullepisode": "y",
                          "adloadtype": "2"])
        for position in 0...seconds {
            api.playheadPosition(position)
            // Written unbuffered, so the last line is exactly what was reported before a kill.
            FileHandle.standardOutput.write(Data("position \(position)\n".utf8))
            try await Task.sleep(nanoseconds: UInt64(interval * 1_000_000_000))
        }
        api.end()
        await api.flush()
        print("done")
    }

    /// Fails at once, naming the collector, when it does not answer within 3 s: the SDK would
    /// otherwise wait for its config in silence, retrying.
    static func checkAnswers(_ collector: String) async throws {
        guard let url = URL(string: collector) else { return }
        var request = URLRequest(url: url.appendingPathComponent("healthz"), timeoutInterval: 3)
        request.httpMethod = "GET"
        do {
            _ = try await URLSession.shared.data(for: request)
        } catch {
            throw MeterFailure(.unavailable, "the collector at \(collector) does not answer (\(error.localizedDescription)): start one (`meter serve`) or check --collector")
        }
    }
}
