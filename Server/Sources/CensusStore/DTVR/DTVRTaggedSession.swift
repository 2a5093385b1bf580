/// One session's DTVR of one CID under one channel name, where the session sent tag pings: what
/// its tags credit and what its SDK's duration pings claimed.
struct DTVRTaggedSession: Sendable, Equatable {
    var appid: String
    var channel: String
    var cid: String
    var session: String
    /// The census's credit from the session's tags (``TagCredit``).
    var tagSeconds: Int64 = 0
    /// The sum of the session's DTVR view and duration pings' `c27` (within their bounds).
    var sdkSeconds: Int64 = 0
    /// Seconds ``tagSeconds`` exceeds the session rule over the tag pings' creation and receipt
    /// times (``SessionPlausibility/excess(credit:createdSpan:receivedSpan:largest:)``); flagged
    /// when positive, as the rule flags the seconds of pings.
    var excess: Int64 = 0
    /// The session's tags and the device that sent them, where the walk keeps them (an
    /// audience's minutes, census-decisions.md S54); empty otherwise.
    var sent = SentTags()

    /// Whether `other` is the same app, channel, CID and session.
    func isSameSession(as other: DTVRTaggedSession?) -> Bool {
        guard let other else { return false }
        return group == other.group
    }

    /// Whether the two disagree (``DTVRAgreement``).
    var disagrees: Bool { DTVRAgreement.disagree(tagSeconds: tagSeconds, sdkSeconds: sdkSeconds) }
}

// In an extension, so that the memberwise initializer stays.
extension DTVRTaggedSession {
    /// The session of a tag group.
    init(group: TagGroup) {
        self.init(appid: group.appid, channel: group.channel, cid: group.cid, session: group.session)
    }

    /// Its tag group.
    var group: TagGroup { TagGroup(appid: appid, channel: channel, cid: cid, session: session) }
}

/// The census's DTVR credit against the SDK's, summed over sessions for a report row.
struct DTVRTagTotals: Sendable, Equatable {
    /// Seconds the tags of the sessions that sent tags credit.
    var tagSeconds: Int64 = 0
    /// Seconds the SDK's pings claimed in those sessions.
    var sdkSeconds: Int64 = 0
    /// Sessions whose two figures disagree.
    var disagreeingSessions: Int64 = 0
    /// Seconds of ``tagSeconds`` from sessions the session rule flags.
    var flaggedTagSeconds: Int64 = 0

    mutating func add(_ session: DTVRTaggedSession) {
        tagSeconds = tagSeconds.saturatingAdd(session.tagSeconds)
        sdkSeconds = sdkSeconds.saturatingAdd(session.sdkSeconds)
        if session.disagrees { disagreeingSessions += 1 }
        if session.excess > 0 { flaggedTagSeconds = flaggedTagSeconds.saturatingAdd(session.tagSeconds) }
    }
}

/// A tagged session's tags as stored, and the device that sent them (``DTVRTaggedSession/sent``).
struct SentTags: Sendable, Equatable {
    var device = ""
    var tags: [StoredTag] = []
}
