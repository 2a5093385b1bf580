/// Finds a ``PingField``'s ordinal (its index in `allCases`) from a parameter name's bytes, for
/// ``PingQuery``: every parameter of every ping the census reads is looked up here.
///
/// A name is packed into two words (every field's name is at most 16 bytes) and looked up in an
/// open-addressed table of 256 slots by a multiplicative hash: one multiply and usually one
/// comparison. A `Dictionary` spent more on seeding and finalising its `Hasher` than the parse
/// spent on the bytes, and a dictionary keyed by `PingField` hashes the raw String.
struct FieldNameTable: Sendable {
    /// A name of at most 16 bytes, packed little-endian into two words, with its length.
    struct PackedName: Equatable, Sendable {
        var low: UInt64 = 0
        var high: UInt64 = 0
        var count: Int

        /// Nil when the name is longer than any field's.
        init?(_ name: UnsafeBufferPointer<UInt8>) {
            guard name.count <= 16 else { return nil }
            count = name.count
            for offset in 0..<min(count, 8) { low |= UInt64(name[offset]) << (offset &* 8) }
            for offset in min(count, 8)..<count { high |= UInt64(name[offset]) << ((offset &- 8) &* 8) }
        }

        /// `name`'s UTF-8, packed; nil when it is longer than any field's. A field's name is a
        /// small string, whose bytes `withUTF8` hands over without a copy to the heap.
        init?(_ name: String) {
            var name = name
            guard let packed = name.withUTF8({ PackedName($0) }) else { return nil }
            self = packed
        }

        /// The name's first slot.
        var slot: Int {
            Int(truncatingIfNeeded: ((low &* 0x9E37_79B9_7F4A_7C15) ^ (high &* 0xC2B2_AE3D_27D4_EB4F) ^ UInt64(count)) >> 56)
        }
    }

    /// The table every ``PingQuery`` reads.
    static let fields = FieldNameTable(PingField.allCases)

    private var slots: [(name: PackedName, ordinal: Int)?] = Array(repeating: nil, count: 256)

    private init(_ fields: [PingField]) {
        precondition(fields.count < slots.count / 2, "the field table must stay at most half full")
        for (ordinal, field) in fields.enumerated() {
            let name = PackedName(field.name)!
            var index = name.slot
            while slots[index] != nil { index = (index + 1) & (slots.count - 1) }
            slots[index] = (name, ordinal)
        }
    }

    /// The ordinal of the field named `name`, or nil when no field has that name.
    func ordinal(of name: PackedName) -> Int? {
        var index = name.slot
        while let entry = slots[index] {
            if entry.name == name { return entry.ordinal }
            index = (index + 1) & (slots.count - 1)
        }
        return nil
    }

    /// The ordinal of `field`.
    func ordinal(of field: PingField) -> Int {
        ordinal(of: PackedName(field.name)!)!
    }
}
