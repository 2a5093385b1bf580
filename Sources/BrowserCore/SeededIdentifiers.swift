import MeasurementCore

/// Session and ping ids for a page, drawn from a generator seeded by the page's
/// `crypto.getRandomValues` (the wasm module has no randomness of its own): 32 hex digits each,
/// like the app SDK's ids.
final class SeededIdentifiers: @unchecked Sendable {
    // Used only by the one instance that owns it, on the page's one thread.
    private var state: (UInt64, UInt64)
    private static let hexDigits = Array("0123456789abcdef".utf8)

    init(seed: UInt64, _ second: UInt64) {
        state = (seed | 1, second ^ 0x9E37_79B9_7F4A_7C15)
    }

    /// xorshift128+: fast, and unpredictable enough for ids that only need to be distinct.
    private func next() -> UInt64 {
        var s1 = state.0
        let s0 = state.1
        state.0 = s0
        s1 ^= s1 << 23
        state.1 = s1 ^ s0 ^ (s1 >> 17) ^ (s0 >> 26)
        return state.1 &+ s0
    }

    func newID() -> String {
        let high = next(), low = next()
        var bytes: [UInt8] = []
        bytes.reserveCapacity(32)
        for index in 0..<32 {
            let bits = index < 16 ? high : low
            bytes.append(Self.hexDigits[Int(bits >> UInt64(60 - 4 * (index % 16)) & 0xF)])
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    var generators: CoreIdentifiers {
        CoreIdentifiers(newSessionID: { self.newID() }, newPingID: { self.newID() })
    }
}
