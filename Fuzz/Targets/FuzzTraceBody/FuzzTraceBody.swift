import Foundation
import MeterWire

/// The call trace body the census accepts (`CallTraceBatch.decode`): any bytes, no crash; a body
/// that reads survives a round trip through ``CallTraceBatch/body()``.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTraceBody(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let body = Data(UnsafeBufferPointer(start: data, count: size))
    if case .success(let batch) = CallTraceBatch.decode(body) {
        precondition(CallTraceBatch.decode(batch.body()) == .success(batch))
    }
    return 0
}
