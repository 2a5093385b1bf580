/// A dictionary that remembers where its most recently used key is: a part updates the same
/// asset's entry every second, and hashing its key (strings) was a fifth of a playhead's work in
/// the core. Every change goes through it, so the remembered place is never stale.
package struct RecentKeyDictionary<Key: Hashable, Value> {
    /// The entries.
    package private(set) var entries: [Key: Value] = [:]
    /// The last key used and its place, valid until an entry is added or removed.
    private var recent: (key: Key, index: Dictionary<Key, Value>.Index)?

    package init() {}

    /// Runs `body` on `key`'s value, added as `make()` first when absent.
    package mutating func update<Result>(
        _ key: Key, orAdd make: () -> Value, _ body: (inout Value) -> Result
    ) -> Result {
        if let recent, recent.key == key { return body(&entries.values[recent.index]) }
        let index: Dictionary<Key, Value>.Index
        if let found = entries.index(forKey: key) {
            index = found
        } else {
            // Adding may move every entry: the place is looked up again after.
            entries[key] = make()
            index = entries.index(forKey: key)!
        }
        recent = (key, index)
        return body(&entries.values[index])
    }

    /// Removes `key`'s entry.
    package mutating func remove(_ key: Key) {
        recent = nil
        entries[key] = nil
    }

    /// Removes every entry.
    package mutating func removeAll() {
        recent = nil
        entries.removeAll()
    }
}

extension RecentKeyDictionary: Sendable where Key: Sendable, Value: Sendable {}

extension RecentKeyDictionary: Equatable where Value: Equatable {
    package static func == (lhs: Self, rhs: Self) -> Bool { lhs.entries == rhs.entries }
}
