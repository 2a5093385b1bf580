import Foundation
import MeterWire

/// The census's ping query reader, the batch body splitter and the wire's percent-decoding: any
/// bytes, no crash; a query that reads returns each field it has. (The call trace body, which is
/// JSON, has a target of its own, `FuzzTraceBody`: decoding every input as JSON here ran this
/// target at a twentieth of its speed.)
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPingQuery(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    let text = String(decoding: bytes, as: UTF8.self)
    // A body framed wrongly is refused whole; one that reads has its lines' queries.
    let lines = (try? BatchFormat.queries(in: bytes).get()) ?? []
    for line in lines {
        guard case .success(let query) = PingQuery.parse(line) else { continue }
        for field in PingField.allCases {
            if let value = query.value(field) { precondition(query.contains(field) && value.utf8.count <= text.utf8.count) }
        }
    }
    _ = WireEncoding.decode(Substring(text))
    return 0
}
