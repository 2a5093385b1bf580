/// Arithmetic on numbers read from a stored call trace. The trace route is open, so a playhead,
/// a length or a time may be anything a sender chose (`9223372036854775807` then
/// `-9223372036854775807` once killed the process): here nothing traps, results are held at the
/// bounds, and what the checks compare is still right for every honest value.
enum TraceArithmetic {
    /// `a - b` as a distance, `|a - b|`, which always fits in `UInt64`.
    static func gap(_ a: Int64, _ b: Int64) -> UInt64 {
        // For a ≥ b the difference is in 0…2⁶⁴−1; the wrapping subtraction has its bit pattern.
        a >= b ? UInt64(bitPattern: a &- b) : UInt64(bitPattern: b &- a)
    }

    /// `a - b`, held at the bounds.
    static func difference(_ a: Int64, _ b: Int64) -> Int64 {
        let (result, overflow) = a.subtractingReportingOverflow(b)
        return overflow ? (b < 0 ? .max : .min) : result
    }

    /// `a + b`, held at the bounds.
    static func sum(_ a: Int64, _ b: Int64) -> Int64 {
        let (result, overflow) = a.addingReportingOverflow(b)
        return overflow ? (b > 0 ? .max : .min) : result
    }

    /// `to - from` in seconds as a `Double`: exact for every honest position and never traps
    /// (the `Int64` difference can overflow; the `Double` one cannot).
    static func moved(from: Int64, to: Int64) -> Double {
        Double(to) - Double(from)
    }

    /// Whole seconds of `seconds` for evidence text: rounded toward zero, held at `Int`'s bounds,
    /// 0 for NaN (`Int(_:)` traps on all three).
    static func wholeSeconds(_ seconds: Double) -> Int {
        guard !seconds.isNaN else { return 0 }
        if seconds >= Double(Int.max) { return .max }
        if seconds <= Double(Int.min) { return .min }
        return Int(seconds)
    }
}
