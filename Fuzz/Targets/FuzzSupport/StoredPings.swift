import CensusStore
import MeterTables
import MeterWire

/// A stored ping for each traced one, crediting an amount read from its id: the timeline sums them.
public func storedPings(of entries: [CallTraceEntry], appid: String) -> [StoredPing] {
    entries.flatMap { entry in
        entry.pings.map { ping in
            StoredPing(pingID: ping.id, appid: appid, pingType: "duration", kind: .content, assetid: entry[.assetid],
                       creditedSeconds: TraceFromBytes.interestingNumbers[ping.id.utf8.count % TraceFromBytes.interestingNumbers.count],
                       createdAt: Int64(entry.seq), rawQuery: ping.query)
        }
    }
}
