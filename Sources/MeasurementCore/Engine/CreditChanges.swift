/// Seconds credited per asset since the owner last took them (``MeterCore/takeCredits()``), held
/// inline: a few assets, merged by key, no heap storage. An owner publishing the totals adds
/// these to its own copy rather than copying ``MeterProgress/creditedSeconds``: a copy it keeps
/// shares the dictionary's storage, and the core's next credit (each playhead) then copies the
/// whole dictionary, an allocation a second.
package struct CreditChanges: Sendable, Equatable {
    /// One asset's seconds.
    package struct Change: Sendable, Equatable {
        package let key: AssetKey
        package fileprivate(set) var seconds: Int64
    }

    private var first: Change?
    private var second: Change?
    private var third: Change?
    private var fourth: Change?
    /// More than four assets were credited: the owner must copy the whole totals instead.
    package private(set) var overflowed = false

    package init() {}

    /// Nothing credited (and nothing lost to an overflow).
    package var isEmpty: Bool { first == nil && !overflowed }

    /// Adds `seconds` to `key`'s change.
    package mutating func add(_ key: AssetKey, _ seconds: Int64) {
        if merge(key, seconds, into: &first) || merge(key, seconds, into: &second)
            || merge(key, seconds, into: &third) || merge(key, seconds, into: &fourth) { return }
        overflowed = true
    }

    /// Calls `body` with each change, in the order the assets were first credited.
    package func forEach(_ body: (Change) -> Void) {
        if let first { body(first) }
        if let second { body(second) }
        if let third { body(third) }
        if let fourth { body(fourth) }
    }

    /// Merges into an empty slot or one holding `key`; false when the slot holds another asset.
    private func merge(_ key: AssetKey, _ seconds: Int64, into slot: inout Change?) -> Bool {
        guard var change = slot else {
            slot = Change(key: key, seconds: seconds)
            return true
        }
        guard change.key == key else { return false }
        change.seconds += seconds
        slot = change
        return true
    }
}
