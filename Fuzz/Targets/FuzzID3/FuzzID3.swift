import Foundation
import MeterWire

/// The DTVR parsers a player feeds from the stream (raw ID3v2 tags, DASH `emsg` boxes, owner
/// strings) and the viewability body the census reads: any bytes, no crash. The first byte picks
/// the parser, so one corpus covers them all.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzID3(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    switch data[0] % 4 {
    case 0:
        if case .success(let owners) = ID3v2.nielsenOwners(in: bytes) {
            for owner in owners { _ = NielsenID3Tag.parse(owner) }
        }
        _ = ID3v2.privOwners(in: bytes)
    case 1:
        if case .success(let message) = DASHEventMessage.parse(bytes) { _ = message }
    case 2:
        let text = String(decoding: bytes, as: UTF8.self)
        if case .success(let tag) = NielsenID3Tag.parse(text) {
            precondition(NielsenID3Tag.isNielsen(tag.ownerString))
        }
    default:
        if let report = try? JSONDecoder().decode(ViewabilityReport.self, from: Data(bytes)) {
            precondition(report.viewableSeconds <= report.measuredSeconds)
            _ = report.body()
        }
    }
    return 0
}
