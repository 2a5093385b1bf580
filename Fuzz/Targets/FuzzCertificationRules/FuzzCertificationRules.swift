import CensusStore
import MeterTables
import FuzzSupport
import MeterWire

/// The arithmetic of the read side alone, fast enough for long runs: a trace built from the bytes
/// field by field (``TraceFromBytes``), in `seq` order as the census keeps it, certified and cut
/// into a credited timeline. `FuzzCertification` covers the same checks behind the trace route's
/// JSON, the API's encoding and the terminal's tables, at about a hundredth of the rate.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCertificationRules(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var reader = TraceFromBytes(UnsafeBufferPointer(start: data, count: size))
    let batch = reader.batch()
    var seen = Set<Int>()
    let entries = batch.entries.filter { seen.insert($0.seq).inserted }.sorted { $0.seq < $1.seq }
    let report = CertificationEvaluator.evaluate(
        session: batch.session, appid: batch.appid, sdk: batch.sdk, trace: entries, at: 0)
    precondition(report.results.count == RulePack.standard.count)
    _ = SessionTimeline.segments(of: entries, stored: storedPings(of: entries, appid: batch.appid))
    return 0
}
