import MeterWire

/// One DTVR tag ping (`at=id3`) as the census credits it: read back from the stored query, every
/// value held to a range in which the crediting arithmetic cannot overflow (the sender chose them
/// all).
struct StoredTag: Sendable, Equatable {
    /// When `sendID3` was called, in Unix milliseconds: the tag's `id3tm`, else its `c61`, never
    /// later than its receipt plus ``CreditBounds/clockSkew``.
    var time: Int64
    /// The offset of the CID credited (`fdoff` when `fdcid` is given, else `pcoff`), 0…99,999;
    /// nil when absent or not a 5-digit count of seconds (the rule then credits nothing for it).
    var offset: Int?
    /// The stored key: a tie-break, so that the order of equal tags does not depend on the database.
    var key: String

    /// The greatest offset a tag carries: five digits.
    static let maxOffset = 99_999
    /// The call times taken, in milliseconds: those of ``WireLimits/creationTimes``.
    static let times = (WireLimits.creationTimes.lowerBound * 1000)...(WireLimits.creationTimes.upperBound * 1000)

    /// Reads a stored tag ping: its query as received, its `c61` (Unix seconds, as stored) and its
    /// receipt (Unix milliseconds, as stored).
    static func read(rawQuery: String, createdAt: Int64, receivedAt: Int64, key: String) -> StoredTag {
        let query = try? PingQuery.parse(Substring(rawQuery)).get()
        let latest = min(times.upperBound, max(times.lowerBound, receivedAt.saturatingAdd(CreditBounds.clockSkew * 1000)))
        let sent = query?.value(.tagTime).flatMap { Int64($0) }.flatMap { times.contains($0) ? $0 : nil }
        let created = WireLimits.creationTimes.contains(createdAt) ? createdAt * 1000 : nil
        let time = min(sent ?? created ?? latest, latest)
        let fromFinalDistributor = !(query?.value(.fdCID) ?? "").isEmpty
        let offset = query?.value(fromFinalDistributor ? .fdOffset : .pcOffset).flatMap(Self.offset)
        return StoredTag(time: time, offset: offset, key: key)
    }

    /// An offset as tags and pings carry it: five digits.
    static func offset(_ text: String) -> Int? {
        guard text.utf8.count == 5, text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else {
            return nil
        }
        return Int(text)
    }
}
