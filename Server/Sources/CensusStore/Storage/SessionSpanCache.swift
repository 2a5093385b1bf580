import NIOConcurrencyHelpers

/// The spans (``SessionSpans``) this census knows to be stored, so that a batch of pings writes
/// only the spans it needs widened: about once an hour per session, instead of a statement per
/// batch that reads every session of the batch.
///
/// What it holds is a lower bound of what is stored, whatever other servers sharing the database
/// write meanwhile, because a stored span only ever widens: a need it says is covered is covered.
/// It forgets everything past ``capacity`` sessions, which then cost one read each again.
final class SessionSpanCache: Sendable {
    /// The most sessions remembered (some 15 MB).
    static let capacity = 100_000

    private typealias Key = SessionSpans.SessionKey

    private let spans = NIOLockedValueBox<[Key: ClosedRange<Int64>]>([:])

    /// An empty cache.
    init() {}

    /// The spans `pings` need (``SessionSpans/needs(of:)``) that no known span covers: one
    /// lookup per ping, and nothing built for a batch whose sessions are all known.
    func uncoveredNeeds(of pings: [IncomingPing]) -> [SessionSpans.Need] {
        let uncovered = spans.withLockedValue { spans in
            pings.filter { ping in
                guard !ping.sessionID.isEmpty else { return false }
                return spans[Key(session: ping.sessionID, appid: ping.appID)]?.contains(ping.createdAt) != true
            }
        }
        return uncovered.isEmpty ? [] : SessionSpans.needs(of: uncovered)
    }

    /// Remembers that spans covering `needs` (as ``SessionSpans/write(_:_:)`` wrote them) are stored.
    func remember(_ needs: [SessionSpans.Need]) {
        spans.withLockedValue { spans in
            if spans.count + needs.count > Self.capacity { spans.removeAll(keepingCapacity: true) }
            for need in needs {
                let written = need.first...need.end
                spans[Key(session: need.session, appid: need.appid), default: written].formHull(with: written)
            }
        }
    }

    /// How many sessions it remembers.
    var count: Int { spans.withLockedValue { $0.count } }
}

extension ClosedRange<Int64> {
    /// Becomes the smallest range holding both itself and `other`.
    mutating func formHull(with other: ClosedRange<Int64>) {
        self = Swift.min(lowerBound, other.lowerBound)...Swift.max(upperBound, other.upperBound)
    }
}
