import CensusStore
import MeterTables
import Foundation
import FuzzSupport
import MeterWire

/// The read side on any stored trace (issue "The census holds against a hostile internet"):
/// bytes become a trace body as the trace route reads it (`CallTraceBatch.decode`), or, when they
/// are not one, a trace built from them field by field (``TraceFromBytes``: numbers and times no
/// route would take too, so that the fuzzer reaches every check without first learning JSON).
/// Its entries, kept as the census stores them, are certified, cut into a timeline with pings
/// credited, encoded as the API answers and printed as `meter certify` and `meter report` print.
/// Nothing may trap, and nothing printed may carry a character a terminal acts on.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCertification(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    let batch: CallTraceBatch
    if case .success(let decoded) = CallTraceBatch.decode(Data(bytes)) {
        batch = decoded
    } else {
        var reader = TraceFromBytes(bytes)
        batch = reader.batch()
    }
    let entries = asStored(batch.entries)
    let report = CertificationEvaluator.evaluate(
        session: batch.session, appid: batch.appid, sdk: batch.sdk, trace: entries, at: 0)
    precondition(report.results.map(\.id) == RulePack.standard.map(\.id))

    let stored = storedPings(of: entries, appid: batch.appid)
    let timeline = SessionTimeline.segments(of: entries, stored: stored)
    let encoder = JSONEncoder()
    // The API's answers: times are finite when the route took them; a built trace may hold any.
    if entries.allSatisfy({ $0.time.isFinite }) {
        precondition((try? encoder.encode(report)) != nil)
        precondition((try? encoder.encode(timeline)) != nil)
    }

    var printed = CertificationTable.render(report) + "\n"
        + CertificationTable.summary([(name: batch.sdk, report: report)]) + "\n"
    printed += ReportTable.render(creditRows(of: timeline, appid: batch.appid)) + "\n"
    printed += TextTable.render([["session", "asset"]] + timeline.map { [batch.session, $0.assetid] })
    precondition(!printed.unicodeScalars.contains { $0 != "\n" && TerminalText.needsEscape($0) })
    return 0
}

/// The entries as the census keeps them: in `seq` order, the first entry of a `seq` kept
/// (a retried batch changes nothing), re-read from the JSON it stores.
private func asStored(_ entries: [CallTraceEntry]) -> [CallTraceEntry] {
    var seen = Set<Int>()
    let kept = entries.filter { seen.insert($0.seq).inserted }.sorted { $0.seq < $1.seq }
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    // Times the route refuses cannot be stored: they stay as built.
    return kept.map { entry in
        guard entry.time.isFinite, let json = try? encoder.encode(entry),
              let read = try? JSONDecoder().decode(CallTraceEntry.self, from: json) else { return entry }
        return read
    }
}

/// Report rows from the timeline's segments, as `meter report` prints them.
private func creditRows(of timeline: [TimelineSegment], appid: String) -> [CreditRow] {
    let rows: [[String: Any]] = timeline.map { segment in
        ["appid": appid, "assetid": segment.assetid, "kind": "content", "views": segment.reports,
         "creditedSeconds": segment.creditedSeconds, "overBoundSeconds": segment.lastPosition ?? 0,
         "ottSeconds": segment.firstPosition ?? 0, "devices": segment.fromSeq, "sessions": segment.toSeq,
         "optedOutShare": segment.end.isFinite ? segment.end : 0]
    }
    guard let json = try? JSONSerialization.data(withJSONObject: rows) else { return [] }
    return (try? JSONDecoder().decode([CreditRow].self, from: json)) ?? []
}
