import CensusHTTP
import CensusSQLite
import CensusStore
import Foundation
import HTTPTypes
import Logging
import NIOCore

// census-probe ping <count>: the census's handling of `count` DCR pings, one after another, for
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

/// The pings: the same ~900-byte DCR ping the SDK's probe reads (`sdk-probe pingQuery`), each
/// with its own ping id and creation time, so each is stored, none answered `duplicate`.
func pingQuery(_ index: Int) -> String {
    "prd=dcr&ci=&asn=Demo%20Channel&fp_id=0a1b2c3d4e5f60718293a4b5c6d7e8f9&fp_cr_tm=1700000000&fp_acc"
        + "_tm=1700000000&ve_id=bca320c1ed9c8176b2a1d80e8b7c4704791b2e07fa6af1936899d0e886819254&tl=Program"
        + "%20S3%2C%20EP1&prv=1&c6=vc%2C&cg=ProgramName&c13=asid%2CP12345678-ABCD-4EF0-9123-456789ABCDEF&c3"
        + "2=segA%2CNA&c33=segB%2CChannelName&c34=segC%2CPlayerName&c15=apn%2CBench&sup=1&c9=devid%2C334ad7"
        + "63911a9511e2d1a849c22bcbda94eadf4f7ba15ad6d1cc2a9855e461d5&enc=true&c1=nuid%2C334ad763911a9511e2"
        + "d1a849c22bcbda94eadf4f7ba15ad6d1cc2a9855e461d5&at=timer&rt=video&c16=sdkv%2Cal.1.0.0&c27=cln%2C6"
        + "0&st=dcr&c36=cref1%2C&c37=cref2%2C&c12=apv%2C1.0&sd=3600&c53=fef%2Cy&c54=oad%2C20171020%2010%3A0"
        + "5%3A00&c57=adldf%2C2&ai=vid345-67483&c3=st%2Cc&adidx=&c64=starttm%2C1700000001&c58=isLive%2Cfals"
        + "e&c59=sesid%2Cprobe0session0000000000000000001&c61=createtm%2C\(1_700_000_061 + 60 * index)&c63=pipMode%2C&uoo=&c71"
        + "=ottflg%2C0&c72=otttyp%2C&c44=progen%2C&sttype=&prov=&davty=1&c62=sendTime%2C1700000061&rnd=1700"
        + "000061000&pingid=probe-\(index)"
}

/// A slowdown `scripts/instruction-guard --self-test` plants after each ping's answer, inside what
/// the guard counts: this many turns of a loop the optimizer keeps.
let plantedTurns = Int(ProcessInfo.processInfo.environment["APPMETER_PROBE_PLANT"] ?? "") ?? 0
nonisolated(unsafe) var plantSink = 0

let arguments = CommandLine.arguments
guard arguments.count == 3, arguments[1] == "ping", let count = Int(arguments[2]), count > 0 else {
    FileHandle.standardError.write(Data("usage: census-probe ping <count>\n".utf8))
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
    // The census's clock moves with the pings, a minute each, so each is received when it was made.
    let clock = ManualCensusClock(seconds: 1_700_000_061)
    let store = PingStore(database: database, clock: clock)
    try await store.migrate()
    let intake = CensusIntake(store: store, policy: .standard, events: CensusEvents(logger: logger))
    let queries = (0..<count).map(pingQuery)
    for (index, query) in queries.enumerated() {
        clock.set(seconds: 1_700_000_061 + 60 * Int64(index))
        let reply = await withCheckedContinuation { answered in
            intake.ingestPing(query: query[...], uri: "/cgi-bin/gn?" + query, on: nil as (any EventLoop)?) { answered.resume(returning: $0) }
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
