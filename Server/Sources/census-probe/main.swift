import CensusHTTP
import CensusSQLite
import CensusStore
import Foundation
import HTTPTypes
import Logging
import MeterWire
import NIOCore

// census-probe ping <count> <query file>: the census's handling of `count` DCR pings, one after another, for
// callgrind (scripts/instruction-guard, issue 49 item 6): each is read, validated, admitted,
// committed by the group-commit writer to an embedded SQLite file, told to the census's events
// (counters, `/metrics`, the live feed) and answered — `CensusIntake.ingestPing`, what the fast
// path runs below NIO's HTTP/1 decoder; the HTTP framing (NIO's) and the access log are not in it.
//
// Every thread is counted. One ping at a time, each answered before the next is sent, so every
// batch holds one ping and the count does not depend on timing; the background checkpointer's
// timed copies are paused (they run every 50 ms on their own thread, whatever the load: with
// valgrind's slowdown their number would follow the wall clock). The guard takes the difference
// between two counts, so opening, migrating and the process's start cancel out.

/// The pings: the same ~900-byte DCR ping the SDK's probe reads (`sdk-probe pingQuery`), from
/// `Probes/census-ping.query` (the contract's names stay out of this source: ContractLiteralTests),
/// each with its own creation time and ping id (`{TIME}`, then `{INDEX}`), so each is stored. The
/// template is split once; a ping costs what string interpolation did.
struct PingTemplate {
    let parts: [String]

    init?(_ text: String) {
        let byTime = text.trimmingCharacters(in: .whitespacesAndNewlines).components(separatedBy: "{TIME}")
        guard byTime.count == 2 else { return nil }
        let byIndex = byTime[1].components(separatedBy: "{INDEX}")
        guard byIndex.count == 2 else { return nil }
        parts = [byTime[0], byIndex[0], byIndex[1]]
    }

    func query(_ index: Int) -> String {
        parts[0] + String(createdAt(index)) + parts[1] + String(index) + parts[2]
    }
}

/// When ping `index` is made, and received: a minute after the one before it.
func createdAt(_ index: Int) -> Int64 { 1_700_000_061 + 60 * Int64(index) }

/// A slowdown `scripts/instruction-guard --self-test` plants after each ping's answer, inside what
/// the guard counts: this many turns of a loop the optimizer keeps.
let plantedTurns = Int(ProcessInfo.processInfo.environment["APPMETER_PROBE_PLANT"] ?? "") ?? 0
nonisolated(unsafe) var plantSink = 0

let arguments = CommandLine.arguments
guard arguments.count == 4, arguments[1] == "ping", let count = Int(arguments[2]), count > 0,
      let text = try? String(contentsOfFile: arguments[3], encoding: .utf8), let template = PingTemplate(text) else {
    FileHandle.standardError.write(Data("usage: census-probe ping <count> <query file>\n".utf8))
    exit(64)
}

func run(_ count: Int) async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("census-probe-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    var logger = Logger(label: "census-probe")
    logger.logLevel = .error
    let database = try await SQLiteCensusDatabase.open(
        path: folder.appendingPathComponent("census.sqlite").path, logger: logger, checkpointInterval: .seconds(86_400))
    // The census's clock moves with the pings, so each is received when it was made.
    let clock = ManualCensusClock(seconds: createdAt(0))
    let store = PingStore(database: database, clock: clock)
    try await store.migrate()
    let intake = CensusIntake(store: store, policy: .standard, events: CensusEvents(logger: logger))
    let queries = (0..<count).map(template.query)
    for (index, query) in queries.enumerated() {
        clock.set(seconds: createdAt(index))
        let reply = await withCheckedContinuation { answered in
            intake.ingestPing(query: query[...], uri: WireRoute.ping + "?" + query, on: nil as (any EventLoop)?) { answered.resume(returning: $0) }
        }
        guard reply.status == .ok, reply.text == "stored" else {
            fatalError("ping \(index) was answered \(reply.status): \(reply.text)")
        }
        for turn in 0..<plantedTurns { plantSink = plantSink &* 31 &+ turn }
    }
    await database.close()
}

// Not top-level `await` (valgrind 3.19 and dispatch_main's signal mask: sdk-probe says why).
let finished = DispatchSemaphore(value: 0)
Task.detached {
    do { try await run(count) } catch { fatalError("census-probe: \(error)") }
    finished.signal()
}
finished.wait()
