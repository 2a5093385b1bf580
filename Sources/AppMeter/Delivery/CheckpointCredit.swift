package import Foundation

/// The short stored form of a credit checkpoint that differs from its slot's whole record only in
/// its credit and creation time (decisions.md D14): 13 bytes, which `Data` keeps inline, in place
/// of a whole record (about 1 kB) encoded and checksummed again every five seconds of playback.
///
/// Layout: the marker `C`; the credited seconds and the creation time's whole seconds after the
/// whole record's (each a `UInt32`, big-endian); and a CRC-32 over the whole record's ping id,
/// credited seconds and creation second followed by those 9 bytes. The CRC binds the form to the
/// record it was written against: once the slot's whole record is written again, a form written
/// against the earlier one no longer matches it and is ignored.
package enum CheckpointCredit {
    /// What a short form is written against: the slot's whole record, as far as the form needs it.
    struct Base: Sendable, Equatable {
        let pingID: String
        let credited: Int64
        let createdSecond: Int64

        /// The base a whole record makes; nil when its creation time is not a representable second
        /// (a record read from storage may hold anything).
        init?(_ record: PingRecord) {
            guard let second = CheckpointCredit.wholeSecond(record.ping.createdAt) else { return nil }
            pingID = record.ping.id
            credited = record.ping.creditedSeconds
            createdSecond = second
        }
    }

    static let marker = UInt8(ascii: "C")
    static let size = 13

    /// The short form of `record` written against `base`, or nil when it cannot say it: another
    /// ping, or a credit or time outside the form's range (the whole record is written then).
    static func encode(_ record: PingRecord, over base: Base) -> Data? {
        guard record.ping.id == base.pingID,
              let credited = UInt32(exactly: record.ping.creditedSeconds),
              let second = wholeSecond(record.ping.createdAt),
              case let (later, overflow) = second.subtractingReportingOverflow(base.createdSecond), !overflow,
              let after = UInt32(exactly: later)
        else { return nil }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: size) { form in
            form[0] = marker
            store(credited, at: 1, in: form)
            store(after, at: 5, in: form)
            store(binding(UnsafeRawBufferPointer(start: form.baseAddress, count: 9), to: base), at: 9, in: form)
            return Data(bytes: form.baseAddress!, count: size)
        }
    }

    /// `record` (a slot's whole record) with the credit and creation time of the short form `data`,
    /// or nil when `data` is not a short form written against it.
    package static func apply(_ data: Data, to record: PingRecord) -> PingRecord? {
        guard data.count == size, let base = Base(record) else { return nil }
        let values: (credited: UInt32, after: UInt32)? = data.withUnsafeBytes { form in
            guard form[0] == marker, load(at: 9, in: form) == binding(UnsafeRawBufferPointer(rebasing: form[0..<9]), to: base)
            else { return nil }
            return (load(at: 1, in: form), load(at: 5, in: form))
        }
        guard let values, case let (second, overflow) = base.createdSecond.addingReportingOverflow(Int64(values.after)),
              !overflow, let exact = Double(exactly: second)
        else { return nil }
        var updated = record
        // Whole seconds: the form keeps `c61`'s second, which is all the census reads of the time.
        guard updated.ping.setCredit(Int64(values.credited), createdAt: MeterInstant(secondsSince1970: exact)) else { return nil }
        return updated
    }

    /// `seconds` rounded down, when it is a finite time an `Int64` holds.
    static func wholeSecond(_ seconds: Double) -> Int64? {
        Int64(exactly: seconds.rounded(.down))
    }

    /// The CRC-32 of `base`'s id, credit and second, then `payload`.
    private static func binding(_ payload: UnsafeRawBufferPointer, to base: Base) -> UInt32 {
        var id = base.pingID
        let crc = id.withUTF8 { CRC32.checksum(UnsafeRawBufferPointer($0)) }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 16) { numbers in
            store64(base.credited, at: 0, in: numbers)
            store64(base.createdSecond, at: 8, in: numbers)
            return CRC32.checksum(payload, continuing: CRC32.checksum(UnsafeRawBufferPointer(numbers), continuing: crc))
        }
    }

    private static func store(_ value: UInt32, at offset: Int, in bytes: UnsafeMutableBufferPointer<UInt8>) {
        for index in 0..<4 { bytes[offset + index] = UInt8(truncatingIfNeeded: value >> (24 - 8 * index)) }
    }

    private static func store64(_ value: Int64, at offset: Int, in bytes: UnsafeMutableBufferPointer<UInt8>) {
        let bits = UInt64(bitPattern: value)
        for index in 0..<8 { bytes[offset + index] = UInt8(truncatingIfNeeded: bits >> (56 - 8 * index)) }
    }

    private static func load(at offset: Int, in bytes: UnsafeRawBufferPointer) -> UInt32 {
        (0..<4).reduce(UInt32(0)) { $0 << 8 | UInt32(bytes[offset + $1]) }
    }
}
