/// One turn at a time per key, keys side by side: the census replays one AMP page view's
/// requests one after the other (a replay reads, then replaces, what the last one stored), while
/// other page views, other publishers' among them, do not wait behind it (census-decisions.md
/// AMP7). On SQLite the one connection would otherwise interleave two replays of a page view.
package actor PageViewTurns {
    /// For each key taken: who waits for it, in arrival order.
    private var waiting: [String: [CheckedContinuation<Void, Never>]] = [:]

    /// Returns once `key` is this caller's; ``end(_:)`` hands it on.
    package init() {}

    package func begin(_ key: String) async {
        guard waiting[key] != nil else {
            waiting[key] = []
            return
        }
        await withCheckedContinuation { waiting[key, default: []].append($0) }
    }

    /// Hands `key` to the next caller waiting for it, or frees it.
    package func end(_ key: String) {
        guard var queue = waiting[key], !queue.isEmpty else {
            waiting[key] = nil
            return
        }
        let next = queue.removeFirst()
        waiting[key] = queue
        next.resume()
    }
}
