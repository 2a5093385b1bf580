import Foundation
import MeterWire

/// The call trace body the census accepts (`CallTraceBatch.decode`): any bytes, no crash; a body
/// that reads survives a round trip through ``CallTraceBatch/body()``.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTraceBody(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let body = Data(UnsafeBufferPointer(start: data, count: size))
    if case .success(let batch) = CallTraceBatch.decode(body) {
        // The SDKs write times to the millisecond (CallTraceBatch.jsonBody), so the first
        // round trip may round them; what it writes must then read back unchanged.
        guard case .success(let written) = CallTraceBatch.decode(batch.body()) else {
            preconditionFailure("a batch the census accepts must read back from its own body")
        }
        precondition(CallTraceBatch.decode(written.body()) == .success(written))
    }
    return 0
}
