/// An MPEG-DASH `emsg` box: how DASH streams carry Nielsen ID3 tags (scheme
/// `www.nielsen.com:id3:v1`, the whole ID3 tag as message data).
public struct DASHEventMessage: Sendable, Equatable {
    /// The scheme Nielsen tags use.
    public static let nielsenScheme = "www.nielsen.com:id3:v1"

    /// `scheme_id_uri`.
    public let scheme: String
    /// `value`.
    public let value: String
    /// `message_data`.
    public let messageData: [UInt8]

    /// Reads a whole `emsg` box (size, type, version 0 or 1, flags, fields, message data).
    public static func parse(_ box: [UInt8]) -> Result<DASHEventMessage, WireFormatError> {
        guard box.count >= 12, box[4..<8].elementsEqual("emsg".utf8) else {
            return .failure(WireFormatError("not an emsg box"))
        }
        let size = Int(ID3v2.bigEndian(box, at: 0))
        guard size >= 12, size <= box.count else {
            return .failure(WireFormatError("the emsg box says \(size) bytes but \(box.count) are given"))
        }
        let box = Array(box[0..<size])
        var position = 12
        func cString() -> String? {
            guard let end = box[position...].firstIndex(of: 0) else { return nil }
            defer { position = end + 1 }
            return String(decoding: box[position..<end], as: UTF8.self)
        }
        let scheme: String?
        let value: String?
        switch box[8] {
        case 0:
            scheme = cString()
            value = cString()
            position += 16  // timescale, presentation_time_delta, event_duration, id
        case 1:
            position += 20  // timescale, presentation_time (64-bit), event_duration, id
            guard position <= box.count else { return .failure(WireFormatError("the emsg box is cut short")) }
            scheme = cString()
            value = cString()
        default:
            return .failure(WireFormatError("emsg version \(box[8]) is not supported (0 and 1 are)"))
        }
        guard let scheme, let value, position <= box.count else {
            return .failure(WireFormatError("the emsg box is cut short"))
        }
        return .success(DASHEventMessage(scheme: scheme, value: value, messageData: Array(box[position...])))
    }

    /// The Nielsen owner strings this message carries (none for another scheme).
    public func nielsenOwners() -> Result<[String], WireFormatError> {
        guard scheme == Self.nielsenScheme else { return .success([]) }
        return ID3v2.nielsenOwners(in: messageData)
    }
}
