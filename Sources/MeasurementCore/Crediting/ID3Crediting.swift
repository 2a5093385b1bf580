/// The DTVR rule for one source (CID): consecutive Nielsen tags credit the seconds the stream
/// advanced between them, as their offsets say — when that is a normal tag interval (up to
/// ``maxTagGap`` seconds) and no more than the time that passed between the calls. A repeat, a
/// jump (a pause on a live stream, a seek, a new broadcast day) or a burst of tags delivered at
/// once credits nothing and becomes the new reference.
public struct ID3Crediting: CreditingRule {
    /// One tag as the rule sees it.
    public struct Observation: Sendable, Equatable {
        /// Seconds into the broadcast day (nil when the tag carries none).
        package var offset: Int?
        /// When `sendID3` was called.
        package var time: MeterInstant

        /// An observation of a tag at `offset` seconds into the broadcast day, seen at `time`.
        public init(offset: Int?, time: MeterInstant) {
            self.offset = offset
            self.time = time
        }
    }

    /// The longest offset step credited: tags come every ~10 s (the SDK config's
    /// `nol_id3IntrvlGp` is 15).
    public static let maxTagGap = 15

    /// The previous tag, or nil before the first.
    package private(set) var reference: Observation?

    /// A rule that has seen no tag yet.
    public init() {}

    /// The seconds `observation` credits after the previous tag (0 for the first), which it
    /// then replaces as the reference.
    public mutating func credit(_ observation: Observation) -> Int64 {
        defer { reference = observation }
        guard let previous = reference, let from = previous.offset, let to = observation.offset else { return 0 }
        let advanced = to - from
        // One second of tolerance: call times are stamped on the player's thread.
        let elapsed = Int((observation.time - previous.time).rounded()) + 1
        guard advanced > 0, advanced <= Self.maxTagGap, advanced <= elapsed else { return 0 }
        return Int64(advanced)
    }
}
