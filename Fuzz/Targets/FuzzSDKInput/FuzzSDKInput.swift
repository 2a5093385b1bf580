@_spi(Fuzzing) import AppMeter
import Foundation

/// What an app hands the SDK as JSON text: appInfo, loadMetadata, trackEvent, updateOTT and
/// trackViewability objects, read by the same readers as the facades (`@_spi(Fuzzing)`). Any
/// bytes, no crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSDKInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    InputFuzzing.read(Data(UnsafeBufferPointer(start: data, count: size)))
    return 0
}
