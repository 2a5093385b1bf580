import MeterWire

/// The census's ping query reader and the batch body splitter: any bytes, no crash, and a query
/// that reads returns each field it has.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPingQuery(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    for line in BatchFormat.queries(in: text) {
        guard case .success(let query) = PingQuery.parse(line) else { continue }
        for field in PingField.allCases {
            if let value = query.value(field) { precondition(query.contains(field) && value.utf8.count <= text.utf8.count) }
        }
    }
    _ = WireEncoding.decode(Substring(text))
    return 0
}
