#if arch(wasm32)
import MeasurementCore

// The WebAssembly module's functions, called by the page's JavaScript (Browser/appmeter.js, which
// the census serves). Text crosses as UTF-8: the page asks `am_alloc` for room, writes a call into it
// and passes it; each function answers with the length of its effect lines, read at `am_output`.
// Input and output each have one buffer, kept from call to call, so that a call every second
// allocates nothing to cross (docs/browser.md); one larger than `keptBytes` is let go after use.
// A page has one thread, so the state below has one owner.

nonisolated(unsafe) private var instances: [BrowserInstance?] = []
nonisolated(unsafe) private var input = UnsafeMutableBufferPointer<UInt8>(start: nil, count: 0)
nonisolated(unsafe) private var output = UnsafeMutableBufferPointer<UInt8>(start: nil, count: 0)
nonisolated(unsafe) private var outputLength: Int32 = 0
/// The largest buffer kept for the next call: a call's text is tens of bytes, a page's metadata a
/// few kB; a page passing megabytes gets them back after the call.
private let keptBytes = 65_536

/// Room for `length` bytes of input: the module's input buffer, valid until the next function
/// call (a page writes its text there, then passes it).
@_expose(wasm, "am_alloc")
@_cdecl("am_alloc")
func amAlloc(_ length: Int32) -> UnsafeMutablePointer<UInt8> {
    let needed = Int(max(length, 1))
    if input.count < needed {
        input.deallocate()
        input = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(needed, 256))
    }
    return input.baseAddress!
}

/// Where the last answer's lines are.
@_expose(wasm, "am_output")
@_cdecl("am_output")
func amOutput() -> UnsafeMutablePointer<UInt8>? { output.baseAddress }

/// The length of the last answer's lines (for `am_create`, which answers a handle).
@_expose(wasm, "am_output_length")
@_cdecl("am_output_length")
func amOutputLength() -> Int32 { outputLength }

/// Creates an instance from its settings (``BrowserSettings``): its handle, or -1 with the reason
/// as an `event` line.
@_expose(wasm, "am_create")
@_cdecl("am_create")
func amCreate(_ pointer: UnsafeMutablePointer<UInt8>, _ length: Int32, _ milliseconds: Double) -> Int32 {
    let text = take(pointer, length)
    var lines = BrowserEffectLines()
    switch BrowserSettings.parse(text) {
    case .success(let settings):
        instances.append(BrowserInstance(settings, at: instant(milliseconds), into: &lines))
        answer(lines)
        return Int32(instances.count - 1)
    case .failure(let error):
        lines.event(error.code, error.message)
        answer(lines)
        return -1
    }
}

/// Handles one `ggPM` call (``BrowserCall``); answers the length of the effect lines.
@_expose(wasm, "am_call")
@_cdecl("am_call")
func amCall(_ handle: Int32, _ pointer: UnsafeMutablePointer<UInt8>, _ length: Int32, _ milliseconds: Double) -> Int32 {
    let text = take(pointer, length)
    var lines = BrowserEffectLines()
    guard let instance = instance(handle) else { return answer(lines) }
    switch BrowserCall.parse(text) {
    case .success(let call): instance.handle(call, at: instant(milliseconds), into: &lines)
    case .failure(let error): lines.event(error.code, error.message)
    }
    return answer(lines)
}

/// Handles `setPlayheadPosition` with a number the page holds (``BrowserCall/playhead(seconds:)``):
/// the call a playing page makes every second, with nothing to write or read; answers as `am_call`.
@_expose(wasm, "am_playhead")
@_cdecl("am_playhead")
func amPlayhead(_ handle: Int32, _ seconds: Double, _ milliseconds: Double) -> Int32 {
    var lines = BrowserEffectLines()
    guard let instance = instance(handle) else { return answer(lines) }
    switch BrowserCall.playhead(seconds: seconds) {
    case .success(let call): instance.handle(call, at: instant(milliseconds), into: &lines)
    case .failure(let error): lines.event(error.code, error.message)
    }
    return answer(lines)
}

/// Handles the wake-ups due by `milliseconds`.
@_expose(wasm, "am_wake")
@_cdecl("am_wake")
func amWake(_ handle: Int32, _ milliseconds: Double) -> Int32 {
    var lines = BrowserEffectLines()
    guard let instance = instance(handle) else { return answer(lines) }
    instance.wake(at: instant(milliseconds), into: &lines)
    return answer(lines)
}

/// The query to send now for a stored ping query (``BrowserInstance/sendQuery``); 0 bytes when
/// the stored text is not a query.
@_expose(wasm, "am_send_query")
@_cdecl("am_send_query")
func amSendQuery(_ pointer: UnsafeMutablePointer<UInt8>, _ length: Int32, _ milliseconds: Double,
                 _ recovered: Int32, _ prefixLength: Int32) -> Int32 {
    let text = take(pointer, length)
    let query = BrowserInstance.sendQuery(text, at: instant(milliseconds), recovered: recovered != 0,
                                          prefixLength: Int(prefixLength)) ?? ""
    return answer(query)
}

/// A checkpoint's query with its credit form applied (``BrowserInstance/creditedQuery``): the
/// text is the stored query, a tab and the form's ping id; answers the length of the query to keep.
@_expose(wasm, "am_credit_query")
@_cdecl("am_credit_query")
func amCreditQuery(_ pointer: UnsafeMutablePointer<UInt8>, _ length: Int32, _ seconds: Double, _ created: Double) -> Int32 {
    let bytes = Array(take(pointer, length).utf8)
    let tab = bytes.lastIndex(of: 9) ?? bytes.count
    let query = String(decoding: bytes[..<tab], as: UTF8.self)
    // Numbers from the page's storage: anything but a whole number from 0 keeps the query.
    guard tab < bytes.count, let seconds = Int64(exactly: seconds), let created = Int64(exactly: created),
          seconds >= 0, created >= 0 else { return answer(query) }
    let pingID = String(decoding: bytes[(tab + 1)...], as: UTF8.self)
    return answer(BrowserInstance.creditedQuery(query, pingID: pingID, seconds: seconds, created: created))
}

/// What to do with a ping after one request (``BrowserDelivery``): `status` 0 for no HTTP
/// answer, `retryAfter` negative for none; answers the length of the decision's line.
@_expose(wasm, "am_outcome")
@_cdecl("am_outcome")
func amOutcome(_ handle: Int32, _ status: Int32, _ retryAfter: Double, _ random: Double) -> Int32 {
    guard let instance = instance(handle) else { return answer("") }
    let decision = instance.delivery.decide(status: Int(status), retryAfter: retryAfter, random: random)
    return answer(BrowserDelivery.line(decision))
}

/// How many of the oldest pings a page drops when `count` wait (``QueueBounds/overflow(count:)``).
@_expose(wasm, "am_overflow")
@_cdecl("am_overflow")
func amOverflow(_ count: Int32) -> Int32 {
    Int32(QueueBounds().overflow(count: Int(count)))
}

/// Forgets an instance.
@_expose(wasm, "am_release")
@_cdecl("am_release")
func amRelease(_ handle: Int32) {
    if instances.indices.contains(Int(handle)) { instances[Int(handle)] = nil }
}

/// The runtime writes a fatal error's message through `putchar`; a page has no standard output,
/// and defining it here keeps the C library's stdio out of the module.
@_cdecl("putchar")
func putchar(_ character: Int32) -> Int32 { character }

/// The C library's assertions (its random source has one) would print through `fprintf`, which
/// brings 10 kB of formatting code; here a failed one stops the module like any fatal error.
@_cdecl("__assert_fail")
func assertFail(_ expression: UnsafeRawPointer?, _ file: UnsafeRawPointer?, _ line: Int32,
                _ function: UnsafeRawPointer?) -> Never {
    fatalError("assertion failed in the C library")
}

/// The text a page wrote at `am_alloc`'s room; `pointer` is that room (a page cannot name
/// another buffer: anything else reads nothing).
private func take(_ pointer: UnsafeMutablePointer<UInt8>, _ length: Int32) -> String {
    defer { letGoIfLarge(&input) }
    guard pointer == input.baseAddress else { return "" }
    return String(decoding: UnsafeBufferPointer(start: pointer, count: min(Int(max(length, 0)), input.count)), as: UTF8.self)
}

private func letGoIfLarge(_ buffer: inout UnsafeMutableBufferPointer<UInt8>) {
    if buffer.count > keptBytes {
        buffer.deallocate()
        buffer = UnsafeMutableBufferPointer<UInt8>(start: nil, count: 0)
    }
}

/// The live instance `handle` names, or nil for a handle the page made up or released.
private func instance(_ handle: Int32) -> BrowserInstance? {
    instances.indices.contains(Int(handle)) ? instances[Int(handle)] : nil
}

private func instant(_ milliseconds: Double) -> MeterInstant {
    MeterInstant(secondsSince1970: milliseconds / 1000)
}

@discardableResult
private func answer(_ lines: BrowserEffectLines) -> Int32 { answer(lines.text) }

private func answer(_ text: String) -> Int32 {
    var text = text
    return text.withUTF8 { answer($0) }
}

/// Copies the answer into the output buffer, grown as needed and let go when large.
private func answer(_ bytes: UnsafeBufferPointer<UInt8>) -> Int32 {
    letGoIfLarge(&output)
    if output.count < bytes.count {
        output.deallocate()
        output = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(bytes.count, 256))
    }
    if let base = bytes.baseAddress, !bytes.isEmpty { output.baseAddress!.update(from: base, count: bytes.count) }
    outputLength = Int32(bytes.count)
    return outputLength
}
#endif
